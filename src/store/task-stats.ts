/** `list()` of a reference store: the stats of each task's current PTA, skipping (with a warning) those that cannot be read. */
import { summarisePta } from '../core/pta/index.js';
import type { Pta } from '../core/scorer-api.js';
import type { StoredTaskStats } from './store-port.js';

/** `fatal` errors are rethrown instead of skipped (e.g. the store being unreachable). */
export async function taskStats(
  tasks: readonly string[],
  get: (task: string) => Promise<Pta | undefined>,
  warn: (message: string) => void,
  fatal: (error: unknown) => boolean = () => false,
): Promise<StoredTaskStats[]> {
  const out: StoredTaskStats[] = [];
  for (const task of tasks) {
    try {
      const pta = await get(task);
      if (!pta) continue;
      const s = summarisePta(pta);
      out.push({ task, version: s.version, references: s.references, nodes: s.nodes, paths: s.paths });
    } catch (error) {
      if (fatal(error)) throw error;
      warn(`list: skipping task ${task}: ${(error as Error).message}`);
    }
  }
  return out;
}
