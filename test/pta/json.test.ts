import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { addReference, buildPta, ptaFromJson, ptaToJson } from '../../src/core/pta/index.js';
import { makeState } from '../equivalence/state-factory.js';
import { trajectoryArb } from './arbitraries.js';

const sample = () =>
  buildPta('django__django-11099', [
    [makeState({ stage: 'E', file: 'a.py', range: [1, 9] }), makeState({ stage: 'I', file: 'a.py', scope: 'a.py::f' })],
    [makeState({ stage: 'E', file: 'a.py', range: [1, 9] }), makeState({ stage: 'V', kind: 'run_test' })],
  ]);

/* eslint-disable @typescript-eslint/no-explicit-any, @typescript-eslint/no-unsafe-member-access, @typescript-eslint/no-unsafe-call, @typescript-eslint/no-unsafe-return --
   the stored JSON is mutated as raw, untyped data on purpose: each case breaks it in a way the types would forbid. */
function mutate(edit: (x: any) => void): string {
  const x = JSON.parse(ptaToJson(sample()));
  edit(x);
  return JSON.stringify(x);
}

describe('ptaToJson / ptaFromJson', () => {
  it('round-trips random PTAs exactly', () => {
    fc.assert(
      fc.property(fc.array(trajectoryArb(), { minLength: 1, maxLength: 4 }), trajectoryArb(), (refs, extra) => {
        const pta = addReference(buildPta('task', refs), extra);
        const back = ptaFromJson(ptaToJson(pta));
        expect(back).toStrictEqual({ ok: true, value: pta });
        expect(ptaFromJson(JSON.parse(ptaToJson(pta)))).toStrictEqual({ ok: true, value: pta });
      }),
      { numRuns: 200 },
    );
  });

  it.each([
    ['not JSON', '{nope', /invalid JSON/],
    ['not an object', '[1]', /expected a JSON object/],
    ['wrong schema', mutate((x) => (x.schema = 2)), /^schema: expected 1, got 2/],
    ['bad version', mutate((x) => (x.version = 0)), /^version/],
    ['tau out of range', mutate((x) => (x.tau = 1.5)), /^tau/],
    ['missing nodes', mutate((x) => delete x.nodes), /^nodes: expected a non-empty array/],
    ['root with state', mutate((x) => (x.nodes[0].state = x.nodes[1].state)), /^nodes\[0\]\.state/],
    ['bad stage', mutate((x) => (x.nodes[1].state.stage = 'X')), /^nodes\[1\]\.state\.stage: expected one of E, I, V, O/],
    ['bad tokens', mutate((x) => (x.nodes[2].state.tokens = [1])), /^nodes\[2\]\.state\.tokens/],
    ['unsorted tokens', mutate((x) => (x.nodes[2].state.tokens = ['pytest', 'python'].reverse())), /^nodes\[2\]\.state\.tokens: expected a sorted array of distinct strings/],
    ['bad range', mutate((x) => (x.nodes[1].state.range = [1])), /^nodes\[1\]\.state\.range/],
    ['child out of range', mutate((x) => x.nodes[1].children.push(99)), /^nodes\[1\]\.children/],
    ['wrong parent', mutate((x) => (x.nodes[3].parent = 0)), /^nodes\[3\]\.parent: expected 1/],
    ['orphan node', mutate((x) => (x.nodes[1].children = [2])), /^nodes\[3\]: not a child/],
    ['ids out of order', mutate((x) => (x.nodes[2].id = 5)), /^nodes\[2\]\.id/],
    ['bad window', mutate((x) => (x.windowSums[1] = [1, 2, 3])), /^windowSums\[1\]/],
    ['bad reference', mutate((x) => (x.references[0] = { length: -1 })), /^references\[0\]/],
    ['bad files', mutate((x) => (x.files = 'a.py')), /^files/],
  ])('rejects %s with a message naming the field', (_name, input, message) => {
    const r = ptaFromJson(input);
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.error).toMatch(message);
  });

  it('accepts the unmodified sample', () => {
    expect(ptaFromJson(ptaToJson(sample())).ok).toBe(true);
  });
});
