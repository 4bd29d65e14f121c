/**
 * Leave-one-out references, by the rule `steplens report`, `calibrate` and
 * `train` score with: a passing run against a PTA of the OTHER passing runs of
 * its task; at least `minReferences` references.
 *
 * A failing run meets a reference of the same size (`matched`, the default):
 * one of those n PTAs of n − 1 passing runs, taken in turn by the task's failing
 * runs. Under the older rule (`all`) it met the PTA of all n passing runs, a
 * larger reference than any passing run meets, and the signals move with the
 * reference's size (bench/pta-matched.ts: within task Φcov's apparent separation
 * came from it): separation figures compared unlike things.
 *
 * A task's runs are taken in the order of their `key` (the run's file path), not
 * in the order given, before the turns are dealt and the PTAs built (a PTA's
 * paths follow the order its references were inserted), so the same runs score
 * the same whatever the order they come in. Keys compare as `compareRunKeys`
 * (core/run-order.ts): the order a walk of one folder lists its files in, so a
 * command over one folder meets its runs in the order it always did. Runs with
 * one key (the instances of one file) keep their order.
 */
import { buildPta } from '../pta/build.js';
import { compareRunKeys } from '../run-order.js';
import type { Pta } from '../scorer-api.js';
import type { State } from '../types.js';

export interface ReferenceCandidate {
  /** What orders the runs of a task: the run's file path (see the file comment). */
  key: string;
  task: string;
  passed: boolean;
  states: readonly State[];
}

/** Which reference a failing run meets (see the file comment). */
export type FailingReference = 'matched' | 'all';

/** Per run (aligned), its leave-one-out PTA, or undefined when its task has too few other passing runs. */
export function leaveOneOutPtas(runs: readonly ReferenceCandidate[], minReferences: number, failing: FailingReference = 'matched'): Array<Pta | undefined> {
  const byTask = new Map<string, number[]>();
  runs.forEach((r, i) => byTask.set(r.task, [...(byTask.get(r.task) ?? []), i]));
  // Array.prototype.sort is stable: runs of one key (one file's instances) keep their order.
  for (const idx of byTask.values()) idx.sort((i, j) => compareRunKeys(runs[i]!.key, runs[j]!.key));
  const out: Array<Pta | undefined> = runs.map(() => undefined);
  for (const [task, idx] of byTask) {
    const refs = idx.filter((i) => runs[i]!.passed && runs[i]!.states.length > 0);
    const ptaOf = (ids: readonly number[]): Pta | undefined =>
      ids.length >= minReferences
        ? buildPta(
            task,
            ids.map((i) => runs[i]!.states),
          )
        : undefined;
    // without[k]: the PTA of the passing runs but refs[k], built once each.
    const without = refs.map((skip) => ptaOf(refs.filter((i) => i !== skip)));
    const all = failing === 'all' || idx.some((i) => runs[i]!.passed && !refs.includes(i)) ? ptaOf(refs) : undefined;
    let turn = 0;
    for (const i of idx) {
      const k = refs.indexOf(i);
      if (k >= 0) out[i] = without[k];
      else if (runs[i]!.passed || failing === 'all') out[i] = all;
      else out[i] = without.length > 0 ? without[turn++ % without.length] : undefined;
    }
  }
  return out;
}
