/**
 * The pieces a PTA's JSON is written in (store/pta-text.ts) stay small whatever its nodes hold: slices of 2,000
 * nodes were 2 MB of a 10,000-node PTA with long commands, each stringified and handed to the socket in one go
 * (GET /v1/tasks/:task/pta of it stalled every client 100-220 ms). A reference's states cross from a scoring
 * worker as JSON slices (not objects the main thread rebuilds in one go), and a PTA goes to a worker as its JSON
 * text; both read back to what was sent.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { loopTurnsDuring } from '../loop-turns.js';
import { buildPta, ptaFromJson, ptaToJson, statesFromJson } from '../../src/core/pta/index.js';
import { ptaJsonChunks, statesFromJsonInSlices, statesFromJsonSlices, statesJsonSlices } from '../../src/store/pta-text.js';
import { wireValue } from '../../src/server/score-pool.js';
import { stateArb } from '../pta/arbitraries.js';

const PIECE = 64 * 1024;

/** `n` states of `words` distinct words a command (a tenant's own reference can be this). */
const wordy = (n: number, words: number, r: number) =>
  fc.sample(stateArb, { numRuns: n, seed: 3 + r }).map((st, t) => ({ ...st, t, hash: `r${r}h${t}`, tokens: Array.from({ length: words }, (_, w) => `r${r}s${t}w${w}`).sort() }));

describe('a PTA written in pieces', () => {
  it('of about 64 Ki characters each, however many nodes a piece would have held, the text exactly ptaToJson', async () => {
    const pta = buildPta('big', [wordy(2500, 60, 1), wordy(2500, 60, 2)]);
    const pieces: string[] = [];
    for await (const piece of ptaJsonChunks(pta)) pieces.push(piece);
    expect(pieces.join('')).toBe(ptaToJson(pta));
    expect(ptaToJson(pta).length).toBeGreaterThan(40 * PIECE);
    // A piece ends at the first node past the mark: at most the mark plus one node (about 1.2 KB here).
    expect(Math.max(...pieces.map((p) => p.length))).toBeLessThan(PIECE + 4096);
  });

  it("sends a reference's states as JSON slices of about 64 Ki characters and reads them back as JSON would", async () => {
    const states = wordy(3000, 40, 3);
    const slices = statesJsonSlices(states);
    expect(slices.length).toBeGreaterThan(10);
    expect(Math.max(...slices.map((s) => s.length))).toBeLessThan(PIECE + 4096);
    expect(await statesFromJsonSlices(slices)).toEqual(JSON.parse(JSON.stringify(states)));
    expect(statesJsonSlices([])).toEqual([]);
    expect(await statesFromJsonSlices([])).toEqual([]);
  });

  it("reads a version's states back (a Redis chain entry) a slice at a time: statesFromJson's states and errors, the loop turning", async () => {
    const states = wordy(4000, 40, 6).map((st, t) => ({ ...st, file: `a"],[{\\${t % 5}.py` }));
    const text = JSON.stringify(states);
    const { value: read, turns } = await loopTurnsDuring(() => statesFromJsonInSlices(text));
    expect(read).toEqual(statesFromJson(text));
    expect(turns).toBeGreaterThanOrEqual(3);
    const bad = JSON.stringify(states.map((st, t) => (t === 3210 ? { ...st, stage: 'X' } : st)));
    expect(await statesFromJsonInSlices(bad)).toEqual(statesFromJson(bad));
    for (const odd of ['[]', ' [ ] ', '{}', '[1,', '', `${text}x`]) expect(await statesFromJsonInSlices(odd), odd).toEqual(statesFromJson(odd));
  });

  it('sends a PTA to a scoring worker as its JSON text, and the prior as it is', async () => {
    const pta = buildPta('t', [wordy(300, 5, 4), wordy(300, 5, 5)]);
    const sent = await wireValue({ kind: 'pta', pta });
    expect(sent).toEqual({ as: 'reference', text: ptaToJson(pta) });
    const read = ptaFromJson((sent as { text: string }).text);
    expect(read.ok && read.value).toEqual(pta);
    expect(await wireValue({ pta })).toEqual({ as: 'pta', text: ptaToJson(pta) });
    expect(await wireValue({ pta: null })).toEqual({ pta: null });
    const prior = { kind: 'prior' as const, prior: { windows: [{}, {}, {}], references: 0 } } as never;
    expect(await wireValue(prior)).toBe(prior);
  });
});
