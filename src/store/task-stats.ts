/** `list()` of a reference store: the stats of each task's current PTA, skipping (with a warning) those that cannot be read. */
import { ptaPathCount } from '../core/pta/index.js';
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
      // Counts only: a summary lists every path and node, which costs the PTA's size per task on every GET /v1/tasks.
      out.push({ task, version: pta.version, references: pta.references.length, nodes: pta.nodes.length - 1, paths: ptaPathCount(pta) });
    } catch (error) {
      if (fatal(error)) throw error;
      warn(`list: skipping task ${task}: ${(error as Error).message}`);
    }
  }
  return out;
}
