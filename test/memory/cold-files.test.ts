/**
 * Files a live session has not used for `COLD_STEPS` steps keep their long texts deflated (`ShadowWorkspace.settle`,
 * bench/README.md "Memory per session, seventh pass"): every result, state and report of every real run is the one a
 * workspace that never deflates gives, and the texts really are deflated on the step path and read back.
 */
import { describe, expect, it, vi } from 'vitest';
import { BIG_COLD_STEPS, BIG_FILE_CHARS, COLD_MIN_CHARS, COLD_STEPS } from '../../src/core/state/cold-files.js';
import { LazyText, SHARE_MIN_CHARS } from '../../src/core/memory/packed-text.js';
import { ShadowWorkspace } from '../../src/core/state/shadow-workspace.js';
import { corpusRuns } from '../fixtures/corpus-runs.js';
import { scoredRun, zlibCalls } from './zlib-calls.js';

describe('files unused for a while are kept deflated on the step path', () => {
  it('gives every result, state and report of every real run that a workspace never deflating gives', () => {
    let cooled = 0;
    let readBack = 0;
    let runs = 0;
    for (const run of corpusRuns()) {
      // No text of this scorer is kept deflated (one shared from an earlier run's scorer may be).
      const plain = zlibCalls(() => scoredRun(run.steps), true);
      const cool = vi.spyOn(LazyText.prototype, 'cool');
      const adopt = vi.spyOn(LazyText.prototype, 'adopt');
      try {
        const got = zlibCalls(() => scoredRun(run.steps));
        expect(got.value).toBe(plain.value);
        cooled += cool.mock.calls.length;
        // Read back from the deflated form: inflated, or given an equal text a later step packed (the shared pool).
        readBack += got.inflates + adopt.mock.results.filter((r) => r.value === true).length;
      } finally {
        cool.mockRestore();
        adopt.mockRestore();
      }
      runs++;
    }
    expect(runs).toBeGreaterThan(10);
    // Texts were really sent cold (deflated, or found deflated already: equal texts are shared process-wide, and a
    // text deflated by another test's scorer is not deflated again; tests share a process), and some read back from
    // their deflated form by later steps. Counted without zlib's calls alone, which depend on what ran before.
    expect(cooled).toBeGreaterThan(30);
    expect(readBack).toBeGreaterThan(5);
  });

  it('deflates a long text once its file has gone unused for COLD_STEPS steps, and reads it back inflating it once', () => {
    const lines = Array.from({ length: 120 }, (_, i) => `    cold_${i % 7} = settle(cold_${i % 5}, ${i})  # unused for a while`);
    const text = lines.join('\n');
    expect(text.length).toBeGreaterThanOrEqual(COLD_MIN_CHARS);
    const ws = new ShadowWorkspace();
    ws.setText('a.py', `${text}\n`);
    ws.setText('short.py', 'x = 1\n');
    ws.settle();
    // Steps that use another file only.
    const steps = (n: number): number => zlibCalls(() => Array.from({ length: n }, () => (ws.prefix('short.py'), ws.settle()))).deflates;
    expect(steps(COLD_STEPS - 1)).toBe(0);
    // The COLD_STEPS-th step after a.py's last use deflates it (short.py, in use and short, never).
    expect(steps(1)).toBe(1);
    expect(steps(2 * COLD_STEPS)).toBe(0);
    const read = zlibCalls(() => [ws.prefix('a.py'), ws.locate('a.py', lines[3]!), ws.settle()]);
    expect(read.value.slice(0, 2)).toEqual([{ text, lines: 120 }, [4, 4]]);
    expect(read.inflates).toBe(1);
    // Unused again: its inflated copy is dropped without deflating it again.
    const again = zlibCalls(() => Array.from({ length: COLD_STEPS + 1 }, () => ws.settle()));
    expect(again.deflates).toBe(0);
    expect(zlibCalls(() => ws.prefix('a.py')).inflates).toBe(1);
  });

  it('deflates a cold text from SHARE_MIN_CHARS characters on (one of 1,024-2,047 too), a shorter one never', () => {
    expect(COLD_MIN_CHARS).toBe(SHARE_MIN_CHARS);
    const text = (n: number): string => Array.from({ length: n }, (_, i) => `    mid_${i % 7} = cooled(${i})  # mid-sized file`).join('\n');
    const mid = text(32);
    const half = text(20);
    const short = text(10);
    expect([mid.length >= SHARE_MIN_CHARS && mid.length < 2 * SHARE_MIN_CHARS, half.length >= SHARE_MIN_CHARS / 2 && half.length < COLD_MIN_CHARS, short.length < SHARE_MIN_CHARS / 2]).toEqual([
      true,
      true,
      true,
    ]);
    const ws = new ShadowWorkspace();
    ws.setText('mid.py', `${mid}\n`);
    ws.setText('half.py', `${half}\n`);
    ws.setText('short.py', `${short}\n`);
    ws.setText('other.py', 'x = 1\n');
    ws.settle();
    const cooled = zlibCalls(() => Array.from({ length: COLD_STEPS + 1 }, () => (ws.prefix('other.py'), ws.settle())));
    expect(cooled.deflates).toBe(1);
    const read = zlibCalls(() => [ws.prefix('mid.py'), ws.prefix('half.py'), ws.prefix('short.py')]);
    expect(read.value).toEqual([
      { text: mid, lines: 32 },
      { text: half, lines: 20 },
      { text: short, lines: 10 },
    ]);
    expect(read.inflates).toBe(1);
  });
  it('deflates a file of BIG_FILE_CHARS or more after BIG_COLD_STEPS unused steps, a smaller one waiting before it after COLD_STEPS', () => {
    expect(BIG_COLD_STEPS).toBeLessThan(COLD_STEPS);
    const text = (n: number, name: string): string => Array.from({ length: n }, (_, i) => `    ${name}_${i % 7} = cooled(${i})  # a file left for a while`).join('\n');
    const mid = text(60, 'mid');
    const big = text(Math.ceil(BIG_FILE_CHARS / 40), 'big');
    expect([mid.length >= COLD_MIN_CHARS && mid.length + 1 < BIG_FILE_CHARS, big.length + 1 >= BIG_FILE_CHARS]).toEqual([true, true]);
    const ws = new ShadowWorkspace();
    // mid.py used first: it comes before big.py in the order of last use, and must not hold big.py back.
    ws.setText('mid.py', `${mid}\n`);
    ws.setText('big.py', `${big}\n`);
    ws.setText('other.py', 'x = 1\n');
    ws.settle();
    expect(ws.sizeOf('big.py')).toBe(big.length + 1);
    const steps = (n: number): number => zlibCalls(() => Array.from({ length: n }, () => (ws.prefix('other.py'), ws.settle()))).deflates;
    expect(steps(BIG_COLD_STEPS - 1)).toBe(0);
    // The BIG_COLD_STEPS-th unused step deflates big.py alone; mid.py waits for its COLD_STEPS.
    expect(steps(1)).toBe(1);
    expect(steps(COLD_STEPS - BIG_COLD_STEPS - 1)).toBe(0);
    expect(steps(1)).toBe(1);
    expect(steps(2 * COLD_STEPS)).toBe(0);
    const read = zlibCalls(() => [ws.prefix('big.py'), ws.prefix('mid.py')]);
    expect(read.value).toEqual([
      { text: big, lines: big.split('\n').length },
      { text: mid, lines: 60 },
    ]);
    expect(read.inflates).toBe(2);
    // Read again: big.py goes cold again after BIG_COLD_STEPS, its deflated form kept (no deflate), its inflated copy dropped.
    expect(steps(BIG_COLD_STEPS + 1)).toBe(0);
    expect(zlibCalls(() => ws.prefix('big.py')).inflates).toBe(1);
  });
});
