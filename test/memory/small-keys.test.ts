/**
 * Per-text and per-workspace bookkeeping kept small (bench/README.md, "Memory per session, thirteenth pass"): the
 * shared-text pool's keys are small integers (a HeapNumber key and held value a pooled text cost ~32 B more), texts
 * whose sampled keys differ only above them still share and stay apart rightly, and a shadow workspace carries no
 * function of its own (a bound callback was ~0.1 KB a workspace).
 */
import { describe, expect, it } from 'vitest';
import { packText, sampledTextKey, sharedKeys, unpackText } from '../../src/core/memory/packed-text.js';
import { ShadowWorkspace } from '../../src/core/state/shadow-workspace.js';

/** A text of `n` characters unique to this run, lines of Python-like source. */
function source(tag: string, n: number): string {
  const line = `    item_${tag} = build(${Math.random()})  # one line of a file\n`;
  return line.repeat(Math.ceil(n / line.length)).slice(0, n);
}

describe('small keys', () => {
  it('keys the shared pool by integers below 2^30; equal texts share one copy, texts of one key stay apart', () => {
    const texts = [1024, 5000, 70_000, 1_500_000].map((n) => source(`k${n}`, n));
    const packed = texts.map((t) => packText(t));
    for (const key of sharedKeys()) expect(Number.isInteger(key) && key >= 0 && key < 2 ** 30).toBe(true);
    // The 1.5M-character text's sampled key is past 2^30 (its length times 2^20): the old key was a HeapNumber.
    expect(sampledTextKey(texts[3]!)).toBeGreaterThan(2 ** 30);
    texts.forEach((t, i) => {
      expect(packText(t.split('').join(''))).toBe(packed[i]);
      expect(unpackText(packed[i]!)).toBe(t);
    });
    // Two texts of lengths 1,024 apart whose sampled keys are 2^30 apart share a pool key: each finds its own copy.
    const a = 'a'.repeat(2048);
    const b = 'a'.repeat(3072);
    expect(sampledTextKey(b) - sampledTextKey(a)).toBe(2 ** 30);
    const pa = packText(a);
    const pb = packText(b);
    expect(pa).not.toBe(pb);
    expect(packText('a'.repeat(2048))).toBe(pa);
    expect(packText('a'.repeat(3072))).toBe(pb);
    expect(unpackText(pb)).toBe(b);
  });

  it('a shadow workspace holds no function of its own (ColdFiles is handed the workspace)', () => {
    const ws = new ShadowWorkspace();
    ws.setText('a.py', source('ws', 3000));
    for (let i = 0; i < 12; i++) ws.settle();
    expect(Object.values(ws).filter((v) => typeof v === 'function')).toEqual([]);
    expect(ws.prefix('a.py')?.lines).toBeGreaterThan(10);
  });
});
