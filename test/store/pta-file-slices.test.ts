/**
 * A PTA file over 1 MiB is read back (a cache miss, a restart) with its nodes parsed a slice at a time
 * (pta-files.ts): the same PTA as a whole parse; a file the sliced parse refuses is classified as before.
 */
import fc from 'fast-check';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildPta, ptaFromJson, ptaToJson } from '../../src/core/pta/index.js';
import { readPtaFile } from '../../src/store/pta-files.js';
import { stateArb } from '../pta/arbitraries.js';
import { removeDir, tempDir } from '../server/helpers.js';

describe('reading a large PTA file', () => {
  it('gives the PTA a whole parse gives; a truncated or foreign large file is named as before', async () => {
    const many = fc.sample(stateArb, { numRuns: 6000, seed: 7 });
    const pta = buildPta('big-task', [many.slice(0, 3000), many.slice(3000)]);
    const text = ptaToJson(pta);
    expect(text.length).toBeGreaterThan(1024 * 1024);
    const dir = await tempDir();
    try {
      const file = path.join(dir, 'big.json');
      await writeFile(file, text);
      const read = await readPtaFile(file, (t) => t === 'big-task');
      const whole = ptaFromJson(text);
      if (!whole.ok) throw new Error(whole.error);
      expect(read).toEqual({ kind: 'pta', pta: whole.value, bytes: Buffer.byteLength(text) });
      expect((await readPtaFile(file, () => false)).kind).toBe('foreign');
      await writeFile(file, text.slice(0, text.length - 100));
      expect((await readPtaFile(file, () => true)).kind).toBe('broken');
    } finally {
      await removeDir(dir);
    }
  }, 60_000);
});
