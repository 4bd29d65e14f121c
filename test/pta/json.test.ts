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

/** `path` (dot-separated keys and indices) in raw JSON. */
const at = (doc: unknown, path: string[]): unknown => path.reduce<unknown>((o, k) => (o as Record<string, unknown>)[k], doc);

/**
 * The sample's stored JSON with the value at `path` replaced by `change(old, doc)` (removed when it
 * returns undefined): raw data, so each case can break it in a way the types would forbid.
 */
function mutate(path: string, change: (old: unknown, doc: unknown) => unknown): string {
  const doc: unknown = JSON.parse(ptaToJson(sample()));
  const keys = path.split('.');
  const last = keys.pop()!;
  const parent = at(doc, keys) as Record<string, unknown>;
  const next = change(parent[last], doc);
  if (next === undefined) delete parent[last];
  else parent[last] = next;
  return JSON.stringify(doc);
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
    ['wrong schema', mutate('schema', () => 2), /^schema: expected 1, got 2/],
    ['bad version', mutate('version', () => 0), /^version/],
    ['tau out of range', mutate('tau', () => 1.5), /^tau/],
    ['missing nodes', mutate('nodes', () => undefined), /^nodes: expected a non-empty array/],
    ['root with state', mutate('nodes.0.state', (_, doc) => at(doc, ['nodes', '1', 'state'])), /^nodes\[0\]\.state/],
    ['bad stage', mutate('nodes.1.state.stage', () => 'X'), /^nodes\[1\]\.state\.stage: expected one of E, I, V, O/],
    ['bad tokens', mutate('nodes.2.state.tokens', () => [1]), /^nodes\[2\]\.state\.tokens/],
    ['unsorted tokens', mutate('nodes.2.state.tokens', () => ['python', 'pytest']), /^nodes\[2\]\.state\.tokens: expected a sorted array of distinct strings/],
    ['bad range', mutate('nodes.1.state.range', () => [1]), /^nodes\[1\]\.state\.range/],
    ['child out of range', mutate('nodes.1.children', (old) => [...(old as number[]), 99]), /^nodes\[1\]\.children/],
    ['wrong parent', mutate('nodes.3.parent', () => 0), /^nodes\[3\]\.parent: expected 1/],
    ['orphan node', mutate('nodes.1.children', () => [2]), /^nodes\[3\]: not a child/],
    ['ids out of order', mutate('nodes.2.id', () => 5), /^nodes\[2\]\.id/],
    ['bad window', mutate('windowSums.1', () => [1, 2, 3]), /^windowSums\[1\]/],
    ['bad reference', mutate('references.0', () => ({ length: -1 })), /^references\[0\]/],
    ['bad files', mutate('files', () => 'a.py'), /^files/],
  ])('rejects %s with a message naming the field', (_name, input, message) => {
    const r = ptaFromJson(input);
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.error).toMatch(message);
  });

  it('accepts the unmodified sample', () => {
    expect(ptaFromJson(ptaToJson(sample())).ok).toBe(true);
  });
});
