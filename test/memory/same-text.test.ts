/**
 * sameText: the kept string for a repeated command text. Strings have no identity a test can see, so what is
 * checked is what can change: the value returned (always the input's), which texts are kept, and the bounds.
 */
import { describe, expect, it } from 'vitest';
import { SAME_TEXT_CHARS, SAME_TEXT_ENTRIES, SAME_TEXT_MAX_CHARS, SAME_TEXT_MIN_CHARS, sameText, sameTextSize } from '../../src/core/memory/same-text.js';
import { sampledTextKey } from '../../src/core/memory/packed-text.js';
import { labelSteps } from '../../src/core/state-builder.js';
import type { Step } from '../../src/core/types.js';
import { defaultAnalyzers } from '../../src/syntax/index.js';
import { corpusRuns } from '../fixtures/corpus-runs.js';

/** A new string object equal to `s` (as a frame's JSON.parse makes). */
const copy = (s: string): string => JSON.parse(JSON.stringify(s)) as string;

describe('sameText', () => {
  it('returns a string equal to its input, first and repeated, kept or not', () => {
    const texts = ['', 'ls', 'x'.repeat(SAME_TEXT_MIN_CHARS - 1), `cat > fix.py <<'EOF'\n${'print(1)\n'.repeat(40)}EOF`, 'é😀 '.repeat(100), 'y'.repeat(SAME_TEXT_MAX_CHARS + 1)];
    for (let round = 0; round < 3; round++) for (const t of texts) expect(sameText(copy(t))).toBe(t);
  });

  it('keeps texts between its bounds only', () => {
    const before = sameTextSize().entries;
    sameText(copy('s'.repeat(SAME_TEXT_MIN_CHARS - 1)));
    sameText(copy('l'.repeat(SAME_TEXT_MAX_CHARS + 1)));
    expect(sameTextSize().entries).toBe(before);
    sameText(copy(`kept ${'k'.repeat(SAME_TEXT_MIN_CHARS)}`));
    expect(sameTextSize().entries).toBe(before + 1);
  });

  it('tells apart texts of one sampled key (a collision costs a miss, never a wrong text)', () => {
    // Same length, and the difference falls between the sampled characters: one key, two texts.
    const n = 64 * 40;
    const a = 'a'.repeat(n);
    const b = `${'a'.repeat(n / 2 + 1)}b${'a'.repeat(n / 2 - 2)}`;
    expect(sampledTextKey(a)).toBe(sampledTextKey(b));
    for (let round = 0; round < 3; round++) {
      expect(sameText(copy(a))).toBe(a);
      expect(sameText(copy(b))).toBe(b);
    }
  });

  it('holds at most SAME_TEXT_ENTRIES texts and SAME_TEXT_CHARS characters', () => {
    for (let i = 0; i < 3 * SAME_TEXT_ENTRIES; i++) sameText(`filler ${i} ${'f'.repeat(SAME_TEXT_MIN_CHARS)}`);
    expect(sameTextSize().entries).toBeLessThanOrEqual(SAME_TEXT_ENTRIES);
    const long = SAME_TEXT_MAX_CHARS - 10;
    for (let i = 0; i < (3 * SAME_TEXT_CHARS) / long; i++) sameText(`${i} ${'g'.repeat(long)}`);
    expect(sameTextSize().chars).toBeLessThanOrEqual(SAME_TEXT_CHARS);
  });
});

describe('the state builder hands the caches the kept command', () => {
  it('labels a frozen step (left as it is) as it labels a copy of it (its command replaced by the kept one)', () => {
    const run = corpusRuns().find((r) => r.steps.some((s) => s.action.kind === 'shell' && s.action.command.length >= SAME_TEXT_MIN_CHARS));
    expect(run).toBeDefined();
    const deepFreeze = (s: Step): Step => Object.freeze({ ...s, action: Object.freeze({ ...s.action }) });
    const analyzers = defaultAnalyzers();
    const frozen = labelSteps(run!.steps.map(deepFreeze), analyzers);
    const copied = labelSteps(structuredClone(run!.steps), analyzers);
    expect(frozen).toEqual(copied);
  });
});
