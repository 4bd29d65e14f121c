/** Deterministic split of a corpus by task (no task on both sides), from a seed. */

/** 32-bit FNV-1a hash of a string. */
export function fnv1a(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h >>> 0;
}

export interface TaskSplit {
  calibration: string[];
  holdout: string[];
}

/**
 * Orders the distinct tasks by the hash of `seed:task` (name breaks ties) and
 * puts the last round(n × holdout) of them in the hold-out half; both halves
 * sorted by name. The same tasks, seed and fraction always give the same split.
 */
export function splitTasks(tasks: readonly string[], seed: number, holdout = 0.5): TaskSplit {
  const distinct = [...new Set(tasks)];
  const order = distinct
    .map((t) => ({ t, h: fnv1a(`${seed}:${t}`) }))
    .sort((a, b) => a.h - b.h || (a.t < b.t ? -1 : a.t > b.t ? 1 : 0))
    .map((x) => x.t);
  const k = Math.round(order.length * holdout);
  const cut = order.length - k;
  const byName = (xs: string[]) => xs.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  return { calibration: byName(order.slice(0, cut)), holdout: byName(order.slice(cut)) };
}
