/**
 * The reference-free signals (issue 15): each O(1) tracker value after t
 * steps equals the signal computed from scratch on the t-step prefix, on
 * every prefix of every real corpus run and on random stage sequences; the
 * composite the scorer streams uses them with the configured weights.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { priorComposite, type PriorSignals } from '../../src/core/composite.js';
import { DEFAULT_CONFIG, resolveConfig } from '../../src/core/config.js';
import { UNIFORM_PRIOR } from '../../src/core/prior.js';
import { createScorer, scoreSteps } from '../../src/core/scorer.js';
import { createPriorSignalTracker, SETTLE_STEPS } from '../../src/core/signals/prior-signals.js';
import type { Stage, State } from '../../src/core/types.js';
import { defaultAnalyzers } from '../../src/syntax/index.js';
import { corpusRuns } from '../fixtures/corpus-runs.js';

const analyzers = defaultAnalyzers();
const prior = { kind: 'prior' as const, prior: UNIFORM_PRIOR };

const runs = corpusRuns();

interface Item {
  state: Pick<State, 'stage' | 'changesFile'>;
  sourceEdit: boolean;
}

/** The signals of a prefix, from scratch: the definitions the docs give. */
function fromScratch(items: readonly Item[], L: number): PriorSignals {
  const n = items.length;
  if (n === 0) return { focus: 0, verify: 0, brevity: 0, edit: 0, settle: 0 };
  const lastChange = items.map((x) => x.state.changesFile).lastIndexOf(true);
  let streak = 0;
  for (let i = n - 1; i >= 0; i--) {
    const st = items[i]!.state.stage;
    if (st === 'O') continue;
    if (st !== 'E') break;
    streak += 1;
  }
  return {
    focus: 1 - items.filter((x) => x.state.stage === 'E').length / n,
    verify: lastChange >= 0 && items.slice(lastChange + 1).some((x) => x.state.stage === 'V') ? 1 : 0,
    brevity: L / (L + n),
    edit: items.some((x) => x.sourceEdit) ? 1 : 0,
    settle: SETTLE_STEPS / (SETTLE_STEPS + streak),
  };
}

describe('reference-free signals', () => {
  it('finds the corpus runs', () => {
    expect(runs.length).toBeGreaterThanOrEqual(60);
  });

  it('on every prefix of every real run, the tracker equals the from-scratch signals and the streamed total their composite', () => {
    let checked = 0;
    let edited = 0;
    let settledBelowOne = 0;
    const cfg = DEFAULT_CONFIG;
    for (const { name, steps } of runs) {
      const scorer = createScorer({ reference: prior, analyzers });
      const tracker = createPriorSignalTracker(cfg.brevitySteps);
      const items: Item[] = [];
      steps.forEach((step, i) => {
        const r = scorer.push(step);
        tracker.add(r.state, r.label.sourceEdit);
        items.push({ state: r.state, sourceEdit: r.label.sourceEdit });
        const want = fromScratch(items, cfg.brevitySteps);
        const got = tracker.value();
        if (JSON.stringify(got) !== JSON.stringify(want)) expect.fail(`${name} step ${i}: tracker ${JSON.stringify(got)} vs ${JSON.stringify(want)}`);
        const total = priorComposite({ struct: null, cov: null, coh: r.score.coh, temp: r.score.temp }, cfg.priorWeights, want).total;
        if (total !== r.score.total) expect.fail(`${name} step ${i}: streamed total ${r.score.total} vs ${total}`);
        if (got.edit === 1) edited += 1;
        if (got.settle < 1) settledBelowOne += 1;
        checked += 1;
      });
    }
    expect(checked).toBeGreaterThan(1500);
    // Both new signals take both values on real runs (the test exercises them).
    expect(edited).toBeGreaterThan(100);
    expect(checked - edited).toBeGreaterThan(100);
    expect(settledBelowOne).toBeGreaterThan(100);
  });

  it('on random stage sequences, the tracker equals the from-scratch signals after every state', () => {
    const stage = fc.constantFrom<Stage>('E', 'I', 'V', 'O');
    const item = fc.record({ stage, changesFile: fc.boolean(), sourceEdit: fc.boolean() });
    fc.assert(
      fc.property(fc.array(item, { maxLength: 60 }), fc.integer({ min: 1, max: 100 }), (xs, L) => {
        const tracker = createPriorSignalTracker(L);
        const items: Item[] = [];
        for (const x of xs) {
          const state = { stage: x.stage, changesFile: x.changesFile } as State;
          tracker.add(state, x.sourceEdit);
          items.push({ state, sourceEdit: x.sourceEdit });
          expect(tracker.value()).toEqual(fromScratch(items, L));
        }
        expect(tracker.length).toBe(xs.length);
      }),
      { numRuns: 300 },
    );
  });

  it('weighs Φedit and Φsettle alone when the config says so', () => {
    const steps = runs.find((r) => r.steps.length > 20)!.steps;
    for (const key of ['edit', 'settle'] as const) {
      const only = { coh: 0, temp: 0, focus: 0, verify: 0, brevity: 0, edit: 0, settle: 0, [key]: 1 };
      const config = resolveConfig({ priorWeights: only });
      if (!config.ok) throw new Error(config.error);
      const { results } = scoreSteps(steps, { reference: prior, analyzers, config: config.value });
      const tracker = createPriorSignalTracker(config.value.brevitySteps);
      results.forEach((r) => {
        tracker.add(r.state, r.label.sourceEdit);
        expect(r.score.total).toBeCloseTo(100 * tracker.value()[key], 10);
      });
    }
  });

  it('refuses reference-free weights that sum to 0 and unknown weight names', () => {
    const zero = { coh: 0, temp: 0, focus: 0, verify: 0, brevity: 0, edit: 0, settle: 0 };
    const r = resolveConfig({ priorWeights: zero });
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.error).toContain('priorWeights must sum to more than 0');
    expect(resolveConfig({ priorWeights: { ...zero, settle: 1 } }).ok).toBe(true);
    const bad = resolveConfig({ priorWeights: { finish: 1 } });
    expect(bad.ok).toBe(false);
    if (!bad.ok) expect(bad.error).toContain('priorWeights');
  });
});
