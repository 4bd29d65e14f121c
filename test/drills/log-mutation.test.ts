/**
 * Drill: real logs of every format, mutated, through every parser (auto and forced) and the scorer: nothing
 * throws, an invalid-JSON refusal names line and column, every diagnostic says where.
 * `node dist/bench/drills.js --only logs` runs 2,500 mutated logs.
 */
import { expect, it } from 'vitest';
import { runLogMutation } from '../../bench/drills/log-mutation.js';
import { CORPUS_DIR } from '../fixtures/corpus.js';

it('mutated real logs never crash a parser and are refused with a position', () => {
  const result = runLogMutation({ corpus: CORPUS_DIR, perFile: 3, files: 40, seed: 19 });
  expect(result.problems).toEqual([]);
  expect(result.runs).toBeGreaterThanOrEqual(40 * 3 * 6);
  expect(result.parsed).toBeGreaterThan(0);
  expect(result.refused).toBeGreaterThan(0);
}, 120_000);
