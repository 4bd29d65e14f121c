/** The states of a real run (labelled against the uniform prior), what reference stores are grown with in tests. */
import { UNIFORM_PRIOR } from '../../src/core/prior.js';
import { createScorer } from '../../src/core/scorer.js';
import type { State } from '../../src/core/types.js';
import { defaultAnalyzers } from '../../src/syntax/index.js';
import { beforeAll } from 'vitest';
import { ASTROID, readSteps } from '../server/helpers.js';

export async function statesOf(file: string): Promise<State[]> {
  const scorer = createScorer({ reference: { kind: 'prior', prior: UNIFORM_PRIOR }, analyzers: defaultAnalyzers() });
  for (const s of await readSteps(file)) scorer.push(s);
  return [...scorer.states()];
}

/** The states of the two passing astroid runs (`a`: ASTROID.passA, `b`: passB), read before the file's tests. */
export function usePassingStates(): { a: State[]; b: State[] } {
  const states: { a: State[]; b: State[] } = { a: [], b: [] };
  beforeAll(async () => {
    states.a = await statesOf(ASTROID.passA);
    states.b = await statesOf(ASTROID.passB);
  });
  return states;
}
