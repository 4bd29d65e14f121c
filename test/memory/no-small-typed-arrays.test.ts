/**
 * The scorer's per-session numbers that were small typed arrays are plain arrays (bench/README.md, "Memory per
 * session, fourteenth pass": a typed array's view and buffer objects cost ~180 B each before its elements), and the
 * scores they give are unchanged (test/signals/temporal and conformance compare them with the batch computation).
 */
import { describe, expect, it } from 'vitest';
import { UNIFORM_PRIOR } from '../../src/core/prior.js';
import { createScorer } from '../../src/core/scorer.js';
import { defaultAnalyzers } from '../../src/syntax/index.js';
import { corpusRuns } from '../fixtures/corpus-runs.js';

const analyzers = defaultAnalyzers();

describe('no small typed arrays', () => {
  it("keeps the scorer's current vector and the temporal tracker's stages and counts in plain arrays", () => {
    const scorer = createScorer({ reference: { kind: 'prior', prior: UNIFORM_PRIOR }, analyzers });
    const run = corpusRuns().reduce((a, b) => (b.steps.length > a.steps.length ? b : a));
    let last = 0;
    for (const step of run.steps) last = scorer.push(step).score.total;
    expect(run.steps.length).toBeGreaterThan(100);
    const fields = scorer as unknown as { current: unknown; temporal: { stages: unknown; counts: number[]; length: number } };
    expect(Array.isArray(fields.current)).toBe(true);
    expect(Array.isArray(fields.temporal.stages)).toBe(true);
    expect(Array.isArray(fields.temporal.counts)).toBe(true);
    // Every state counted once, in one of the three windows.
    expect(fields.temporal.counts.reduce((a, b) => a + b, 0)).toBe(fields.temporal.length);
    expect(scorer.score().total).toBe(last);
  });
});
