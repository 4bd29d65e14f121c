/**
 * A read-only folder of stored PTAs (a server's `--data` folder, the bundled references): indexed on open,
 * each task's PTA read on demand. Nothing is created, cleaned or written, so it is safe on a folder a running
 * server owns or inside an installed package.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { Pta } from '../core/scorer-api.js';
import { SteplensError } from '../errors.js';
import { parseStoredPta, storedTaskFiles } from './stored-pta.js';

export class ReferenceFolder {
  private constructor(
    readonly dir: string,
    private readonly files: Map<string, string>,
  ) {}

  /** Indexes `dir`; a folder that cannot be read, or holds no `<task>.json`, is a `bad_input` error naming it. */
  static async open(dir: string): Promise<ReferenceFolder> {
    const resolved = path.resolve(dir);
    let files: Map<string, string>;
    try {
      files = await storedTaskFiles(resolved);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code ?? String(error);
      throw new SteplensError('bad_input', `cannot read the reference folder ${dir}: ${code}`, { cause: error });
    }
    if (files.size === 0) throw new SteplensError('bad_input', `the reference folder ${dir} holds no stored PTA (<task>.json)`);
    return new ReferenceFolder(resolved, files);
  }

  /** Every task with a PTA here, sorted. */
  tasks(): string[] {
    return [...this.files.keys()].sort();
  }

  /** The task's PTA, or undefined when the folder has none; an unreadable file is a `bad_input` error naming it. */
  async get(task: string): Promise<Pta | undefined> {
    const file = this.files.get(task);
    if (file === undefined) return undefined;
    const parsed = parseStoredPta(await readFile(file, 'utf8'), file, task);
    if (!parsed.ok) throw new SteplensError('bad_input', parsed.error);
    return parsed.value;
  }
}
