import fc from 'fast-check';
import type { State } from '../../src/core/types.js';

/**
 * Random states drawn from small pools so that all four equivalence tiers,
 * and non-equivalence, occur often. Optional keys are present or absent (never undefined).
 */
export const stateArb: fc.Arbitrary<State> = fc
  .record(
    {
      t: fc.nat(50),
      stage: fc.constantFrom('E', 'I', 'V', 'O' as const),
      kind: fc.constantFrom('read', 'edit', 'run_test', 'search' as const),
      tool: fc.constantFrom('bash', 'str_replace_editor'),
      file: fc.constantFrom('a.py', 'b.py', 'tests/test_a.py'),
      range: fc.tuple(fc.integer({ min: 1, max: 40 }), fc.integer({ min: 0, max: 30 })).map(([s, len]): [number, number] => [s, s + len]),
      scope: fc.constantFrom('a.py::f', 'a.py::C.g', 'b.py::<module>'),
      hash: fc.constantFrom('h0', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'h7'),
      tokens: fc.subarray(['-n', 'grep', 'pytest', 'python', 'src', 'x']),
      command: fc.boolean(),
      changesFile: fc.boolean(),
      failed: fc.boolean(),
      cost: fc.nat(1000),
      unknown: fc.boolean(),
    },
    { requiredKeys: ['t', 'stage', 'kind', 'tool', 'hash', 'tokens', 'command', 'changesFile', 'failed', 'cost', 'unknown'] },
  )
  .map((s) => s as State);

/** A trajectory of 0..maxLength states. */
export const trajectoryArb = (maxLength = 12): fc.Arbitrary<State[]> => fc.array(stateArb, { maxLength });
