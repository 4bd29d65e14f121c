/**
 * Where the server keeps its policy state (shadow counters, promotions, pins):
 * a small interface, so a shared store (Redis) can replace the file; the file
 * store writes `<dataDir>/policies/state.json` atomically beside the task
 * references (the reference store ignores the folder: its name is not a task file).
 */
import { mkdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { writeFileAtomic } from './atomic-write.js';

export interface PolicyStateStore {
  /** The last saved snapshot (raw JSON), or undefined when none was saved. */
  load(): Promise<unknown>;
  save(snapshot: unknown): Promise<void>;
  /** Where it lives, for logs. */
  readonly where: string;
}

export class FilePolicyStateStore implements PolicyStateStore {
  readonly where: string;
  constructor(dataDir: string) {
    this.where = path.join(dataDir, 'policies', 'state.json');
  }

  async load(): Promise<unknown> {
    let text: string;
    try {
      text = await readFile(this.where, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw error;
    }
    return JSON.parse(text) as unknown;
  }

  async save(snapshot: unknown): Promise<void> {
    await mkdir(path.dirname(this.where), { recursive: true });
    await writeFileAtomic(this.where, `${JSON.stringify(snapshot)}\n`);
  }
}

/** Keeps the snapshot in memory (tests; servers without a data directory). */
export class MemoryPolicyStateStore implements PolicyStateStore {
  readonly where = 'memory';
  private snapshot: unknown;
  async load(): Promise<unknown> {
    return this.snapshot === undefined ? undefined : structuredClone(this.snapshot);
  }
  async save(snapshot: unknown): Promise<void> {
    this.snapshot = structuredClone(snapshot);
  }
}
