/**
 * The PTA's JSON and its growth a slice at a time (store/pta-text.ts): the same text as `ptaToJson`, the same
 * bytes as measured whole, the same PTA as growing in one go, and the event loop turning in between.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { loopTurnsDuring } from '../loop-turns.js';
import { buildPta, growWithin, growWithinSteps, ptaFromJson, ptaToJson, statesFromJson } from '../../src/core/pta/index.js';
import { measurePtaInSlices, ptaFromJsonInSlices, ptaJsonInSlices, runInSteps, statesJsonInSlices } from '../../src/store/pta-text.js';
import { writeFileAtomic } from '../../src/store/atomic-write.js';
import { ptaJsonChunks } from '../../src/store/pta-text.js';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { stateArb, trajectoryArb } from '../pta/arbitraries.js';
import { removeDir, tempDir } from '../server/helpers.js';

const loose = { maxReferences: 1e6, maxNodes: 1e9, maxBytes: 1e12 };

describe('PTA text and growth in slices', () => {
  it('writes exactly ptaToJson, and measures its bytes, for small and large PTAs', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(trajectoryArb(40), { maxLength: 6 }), async (refs) => {
        const pta = buildPta('t', refs);
        expect(await ptaJsonInSlices(pta)).toBe(ptaToJson(pta));
        expect(await measurePtaInSlices(buildPta('t', refs))).toBe(Buffer.byteLength(ptaToJson(pta)));
      }),
      { numRuns: 100 },
    );
    // Over several slices of nodes (2,000 each), with a non-ASCII task.
    const many = fc.sample(stateArb, { numRuns: 6000, seed: 25 });
    const big = buildPta('tâche-日本', [many.slice(0, 2500), many.slice(2500, 4200)]);
    const long = buildPta('t', [many.slice(4200).map((st, t) => ({ ...st, t, file: `é/${t % 7}.py` }))]);
    expect(big.nodes.length + long.nodes.length).toBeGreaterThan(4000);
    for (const pta of [big, long]) {
      expect(await ptaJsonInSlices(pta)).toBe(ptaToJson(pta));
      const dir = await tempDir();
      const file = path.join(dir, 'p.json');
      expect(await writeFileAtomic(file, ptaJsonChunks(pta))).toBe(Buffer.byteLength(ptaToJson(pta)));
      expect(await readFile(file, 'utf8')).toBe(ptaToJson(pta));
      await removeDir(dir);
    }
  });

  it('grows in steps to the very PTA grown in one go, letting timers run meanwhile', async () => {
    const refs = fc.sample(
      trajectoryArb(3000).filter((r) => r.length > 0),
      { numRuns: 2, seed: 25 },
    );
    const base = buildPta('t', refs.slice(0, 1));
    const extra = Array.from({ length: 20_000 }, (_, i) => ({ ...refs[1]![i % refs[1]!.length]!, t: i, hash: `h${i}` }));
    let ticks = 0;
    const timer = setInterval(() => ticks++, 1);
    const stepped = await runInSteps(growWithinSteps('t', base, extra, loose));
    clearInterval(timer);
    expect(stepped).toEqual(growWithin('t', base, extra, loose));
    expect(ticks).toBeGreaterThan(0);
  });

  it("writes and reads back a reference's states in slices: the text of JSON.stringify, the states of statesFromJson, errors naming the state by its index", async () => {
    const many = fc.sample(stateArb, { numRuns: 1700, seed: 7 }).map((st, t) => ({ ...st, t }));
    for (const states of [[], many.slice(0, 3), many]) {
      const r = await statesJsonInSlices(states);
      const whole = statesFromJson(JSON.stringify(states));
      expect(r.ok && whole.ok).toBe(true);
      if (!r.ok || !whole.ok) continue;
      expect(r.value.json).toBe(JSON.stringify(states));
      expect(r.value.states).toEqual(whole.value);
    }
    const bad = many.map((st, t) => (t === 1234 ? { ...st, stage: 'X' as never } : st));
    const r = await statesJsonInSlices(bad);
    expect(r).toEqual(statesFromJson(JSON.stringify(bad)));
    expect(r).toMatchObject({ ok: false, error: expect.stringMatching(/^states\[1234\]\.stage/) as unknown });
  });

  it('reads a PTA back a slice of nodes at a time: the PTA ptaFromJson reads, its key order kept, the same errors', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(trajectoryArb(30), { maxLength: 4 }), fc.string(), async (refs, task) => {
        const text = ptaToJson(buildPta(task, refs));
        const r = await ptaFromJsonInSlices(text);
        expect(r).toEqual(ptaFromJson(text));
        if (r.ok) expect(ptaToJson(r.value)).toBe(text);
      }),
      { numRuns: 60 },
    );
    // Over several slices of nodes (2,000 each), with strings holding brackets, quotes and escapes.
    const many = fc.sample(stateArb, { numRuns: 5000, seed: 31 }).map((st, t) => ({ ...st, t, file: `a"]}[{\\${t % 5}.py` }));
    const big = buildPta('"nodes":[', [many.slice(0, 2600), many.slice(2600)]);
    const text = ptaToJson(big);
    expect(big.nodes.length).toBeGreaterThan(4000);
    const { value: r, turns } = await loopTurnsDuring(() => ptaFromJsonInSlices(text));
    expect(r.ok && ptaToJson(r.value)).toBe(text);
    expect(turns).toBeGreaterThanOrEqual(3); // the event loop turned between the slices of nodes
    // Broken texts: a wrong structure answers as ptaFromJson does; broken JSON says so (the position may differ).
    for (const bad of [text.replace('"refs":', '"refz":'), '[]', '{}', '{"nodes":[]}']) expect(await ptaFromJsonInSlices(bad)).toEqual(ptaFromJson(bad));
    for (const bad of [text.slice(0, -10), '{"nodes":[1,2', `${text.slice(0, 20_000)}x${text.slice(20_000)}`])
      expect(await ptaFromJsonInSlices(bad)).toMatchObject({ ok: false, error: expect.stringMatching(/^PTA: invalid JSON/) as unknown });
  });
});
