/** The states of a real run (labelled against the uniform prior), what reference stores are grown with in tests. */
import { UNIFORM_PRIOR } from '../../src/core/prior.js';
import { createScorer } from '../../src/core/scorer.js';
import type { State } from '../../src/core/types.js';
import { defaultAnalyzers } from '../../src/syntax/index.js';
import { readSteps } from '../server/helpers.js';

export async function statesOf(file: string): Promise<State[]> {
  const scorer = createScorer({ reference: { kind: 'prior', prior: UNIFORM_PRIOR }, analyzers: defaultAnalyzers() });
  for (const s of await readSteps(file)) scorer.push(s);
  return [...scorer.states()];
}
