/** A scoring worker's kept references are bounded by the characters of their PTAs, not only by their count. */
import { describe, expect, it } from 'vitest';
import { KEPT_PTA_CHARS, KEPT_REFERENCES, keptReferences, type KeptReference } from '../../src/server/worker-references.js';

const entry = (tag: number, chars: number): KeptReference => ({ tag, value: { pta: null }, chars });

describe('references kept by a scoring worker', () => {
  it('lets the oldest PTAs go once their text passes the bound (three own PTAs of 12 MiB: two kept)', () => {
    const kept = keptReferences();
    const mib = 1024 * 1024;
    for (let i = 0; i < 3; i++) kept.set(`task\u0000t\u0000big${i}`, entry(i, 12 * mib));
    expect([...kept.keys()].sort()).toEqual(['task\u0000t\u0000big1', 'task\u0000t\u0000big2']);
    expect(kept.calculatedSize).toBeLessThanOrEqual(KEPT_PTA_CHARS);
  });

  it('keeps at most KEPT_REFERENCES small ones, the most recently used', () => {
    const kept = keptReferences();
    for (let i = 0; i < KEPT_REFERENCES + 8; i++) kept.set(`k${i}`, entry(i, 0));
    expect(kept.size).toBe(KEPT_REFERENCES);
    expect(kept.has('k0')).toBe(false);
    expect(kept.has(`k${KEPT_REFERENCES + 7}`)).toBe(true);
  });

  it('does not keep one PTA over the bound (it is sent again when asked for) and keeps what it held', () => {
    const kept = keptReferences(1000);
    kept.set('small', entry(1, 10));
    kept.set('huge', entry(2, 1001));
    expect(kept.has('huge')).toBe(false);
    expect(kept.get('small')?.tag).toBe(1);
  });
});
