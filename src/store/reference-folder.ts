/**
 * A read-only folder of stored PTAs (a server's `--data` folder, the bundled references), in the file
 * store's layout: one task file per task (file-names.ts; a long task id gets a hashed name, so its task is
 * read from the file). Each file is checked as the store checks it (pta-files.ts), but nothing is created,
 * moved or written, so it is safe on a folder a running server owns or inside an installed package.
 */
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import type { Pta } from '../core/scorer-api.js';
import { SteplensError } from '../errors.js';
import { PTA_SUFFIX, isHashedFileName, taskFileName, taskFromFileName } from './file-names.js';
import { readPtaFile } from './pta-files.js';

/** A file's problem as the one `bad_input` error `report` prints. */
function unusable(file: string, why: string): SteplensError {
  return new SteplensError('bad_input', `stored PTA ${file} is unusable: ${why}`);
}

export class ReferenceFolder {
  private constructor(
    readonly dir: string,
    /** task → file, for readable names (read on demand). */
    private readonly files: Map<string, string>,
    /** task → PTA, for hashed names (read at open: only the file says its task). */
    private readonly hashed: Map<string, Pta>,
  ) {}

  /** Indexes `dir`; a folder that cannot be read, or holds no task file, is a `bad_input` error naming it. */
  static async open(dir: string): Promise<ReferenceFolder> {
    const resolved = path.resolve(dir);
    let names: string[];
    try {
      names = (await readdir(resolved)).sort();
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code ?? String(error);
      throw new SteplensError('bad_input', `cannot read the reference folder ${dir}: ${code}`, { cause: error });
    }
    const files = new Map<string, string>();
    const hashed = new Map<string, Pta>();
    for (const name of names) {
      if (name.startsWith('.') || !name.endsWith(PTA_SUFFIX)) continue;
      const file = path.join(resolved, name);
      const task = taskFromFileName(name);
      if (task !== undefined) files.set(task, file);
      else if (isHashedFileName(name)) {
        const found = await readPtaFile(file, (t) => taskFileName(t) === name);
        if (found.kind === 'removed') continue; // its task's PTA was removed: no PTA
        if (found.kind !== 'pta') throw unusable(file, found.why);
        hashed.set(found.pta.task, found.pta);
      }
    }
    if (files.size + hashed.size === 0) throw new SteplensError('bad_input', `the reference folder ${dir} holds no stored PTA (<task>.json)`);
    return new ReferenceFolder(resolved, files, hashed);
  }

  /** Every task with a PTA here, sorted. */
  tasks(): string[] {
    return [...this.files.keys(), ...this.hashed.keys()].sort();
  }

  /** The task's PTA, or undefined when the folder has none; an unusable file is a `bad_input` error naming it. */
  async get(task: string): Promise<Pta | undefined> {
    const hashed = this.hashed.get(task);
    if (hashed !== undefined) return hashed;
    const file = this.files.get(task);
    if (file === undefined) return undefined;
    const found = await readPtaFile(file, (t) => t === task);
    if (found.kind === 'removed') return undefined;
    if (found.kind !== 'pta') throw unusable(file, found.why);
    return found.pta;
  }
}
