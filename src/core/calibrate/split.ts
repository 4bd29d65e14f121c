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

/** MurmurHash3's 32-bit finaliser: every input bit moves every output bit. */
export function fmix32(h: number): number {
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
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
 * `repeat` r > 0 hashes `seed/r:task` instead, through a final mix (`fmix32`): the
 * r-th further split of the same seed. FNV-1a alone orders names that differ in
 * their last characters nearly alike whatever the prefix, so the repeats would
 * repeat each other; repeat 0 keeps the plain hash (the seed's split as before).
 */
export function splitTasks(tasks: readonly string[], seed: number, holdout = 0.5, repeat = 0): TaskSplit {
  const distinct = [...new Set(tasks)];
  const hash = (t: string) => (repeat === 0 ? fnv1a(`${seed}:${t}`) : fmix32(fnv1a(`${seed}/${repeat}:${t}`)));
  const order = distinct
    .map((t) => ({ t, h: hash(t) }))
    .sort((a, b) => a.h - b.h || (a.t < b.t ? -1 : a.t > b.t ? 1 : 0))
    .map((x) => x.t);
  const k = Math.round(order.length * holdout);
  const cut = order.length - k;
  const byName = (xs: string[]) => xs.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  return { calibration: byName(order.slice(0, cut)), holdout: byName(order.slice(cut)) };
}
