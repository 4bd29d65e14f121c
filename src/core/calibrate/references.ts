/**
 * Leave-one-out references, by the rule `steplens report` scores with: a
 * passing run against a PTA of the OTHER passing runs of its task, any other
 * run against the PTA of all of them; at least `minReferences` references.
 */
import { buildPta } from '../pta/build.js';
import type { Pta } from '../scorer-api.js';
import type { State } from '../types.js';

export interface ReferenceCandidate {
  task: string;
  passed: boolean;
  states: readonly State[];
}

/** Per run (aligned), its leave-one-out PTA, or undefined when its task has too few other passing runs. */
export function leaveOneOutPtas(runs: readonly ReferenceCandidate[], minReferences: number): Array<Pta | undefined> {
  const byTask = new Map<string, number[]>();
  runs.forEach((r, i) => byTask.set(r.task, [...(byTask.get(r.task) ?? []), i]));
  const out: Array<Pta | undefined> = runs.map(() => undefined);
  for (const [task, idx] of byTask) {
    const refs = idx.filter((i) => runs[i]!.passed && runs[i]!.states.length > 0);
    const full =
      refs.length >= minReferences
        ? buildPta(
            task,
            refs.map((i) => runs[i]!.states),
          )
        : undefined;
    for (const i of idx) {
      if (!runs[i]!.passed) {
        out[i] = full;
        continue;
      }
      const others = refs.filter((j) => j !== i);
      out[i] =
        others.length >= minReferences
          ? buildPta(
              task,
              others.map((j) => runs[j]!.states),
            )
          : undefined;
    }
  }
  return out;
}
