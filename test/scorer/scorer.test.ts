import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { buildPta } from '../../src/core/pta/index.js';
import { priorFromPtas, UNIFORM_PRIOR } from '../../src/core/prior.js';
import { createScorer, scoreSteps } from '../../src/core/scorer.js';
import type { Reference } from '../../src/core/scorer-api.js';
import type { ScoreVector, State, Step } from '../../src/core/types.js';
import { defaultAnalyzers } from '../../src/syntax/index.js';
import { HYDRA_GPT5, HYDRA_KIMI, HYDRA_QWEN, MOTO_KIMI, sweAgentSteps } from './corpus.js';

const analyzers = defaultAnalyzers();
const prior: Reference = { kind: 'prior', prior: UNIFORM_PRIOR };

function statesOf(steps: readonly Step[]): State[] {
  const s = createScorer({ reference: prior, analyzers });
  for (const step of steps) s.push(step);
  return [...s.states()];
}

const hydra = [HYDRA_GPT5, HYDRA_KIMI, HYDRA_QWEN].map(sweAgentSteps);
const hydraPta = buildPta('facebookresearch__hydra-1915', [statesOf(hydra[1]!), statesOf(hydra[2]!)]);

function sameScore(a: ScoreVector, b: ScoreVector): void {
  expect(a.total).toBe(b.total);
  expect(a.struct).toBe(b.struct);
  expect(a.cov).toBe(b.cov);
  expect(a.coh).toBe(b.coh);
  expect(a.temp).toBe(b.temp);
}

describe('scorer against a PTA', () => {
  it('a trajectory scored against a PTA of copies of itself has struct = cov = 100 and temp = 1', () => {
    const steps = hydra[0]!;
    const self = statesOf(steps);
    const pta = buildPta('self', [self, self]);
    const { report } = scoreSteps(steps, { reference: { kind: 'pta', pta }, analyzers });
    expect(report.score.struct).toBe(100);
    expect(report.score.cov).toBe(100);
    expect(report.score.temp).toBe(1);
    expect(report.reference).toEqual({ kind: 'pta', version: 1, paths: 1 });
    expect(report.steps).toBe(steps.length);
  });

  it('rewards are f_t − f_{t−1} and sum to the final total', () => {
    const { results, report } = scoreSteps(hydra[0]!, { reference: { kind: 'pta', pta: hydraPta }, analyzers });
    let prev = 0;
    let sum = 0;
    for (const r of results) {
      expect(r.reward).toBe(r.score.total - prev);
      prev = r.score.total;
      sum += r.reward;
    }
    expect(Math.abs(sum - report.score.total)).toBeLessThan(1e-9);
  });

  it('the report holds stages, tier by outcome, signals fired so far, and waste with tools', () => {
    const steps = sweAgentSteps(MOTO_KIMI);
    const scorer = createScorer({ reference: { kind: 'pta', pta: hydraPta }, analyzers });
    const fired = steps.flatMap((s) => scorer.push(s).signals);
    const passed = scorer.report(true);
    const failed = scorer.report(false);
    expect(passed.stages).toBe(
      scorer
        .states()
        .map((s) => s.stage)
        .join(''),
    );
    expect(passed.stages).toMatch(/^[EIVO]+$/);
    expect(passed.signals).toEqual(fired);
    expect(['Partial-fail', 'Off-track']).toContain(failed.tier);
    expect(['Ideal', 'Solid', 'Lucky']).toContain(passed.tier);
    expect(passed.lucky !== undefined).toBe(passed.tier === 'Lucky');
    expect(failed.lucky).toBeUndefined();
    for (const w of passed.waste) {
      expect(w.steps.length).toBeGreaterThanOrEqual(w.wastedSteps);
      expect(w.wastedTokens).toBeGreaterThanOrEqual(0);
    }
  });
});

describe('scorer without a reference', () => {
  it('leaves struct and cov out (null) and marks the reference as prior', () => {
    const scorer = createScorer({ reference: { kind: 'prior', prior: priorFromPtas([hydraPta]) }, analyzers });
    expect(scorer.score()).toEqual({ total: 0, struct: null, cov: null, coh: 0, temp: 0 });
    for (const s of hydra[0]!) scorer.push(s);
    const r = scorer.report();
    expect(r.score.struct).toBeNull();
    expect(r.score.cov).toBeNull();
    expect(r.reference).toEqual({ kind: 'prior' });
    expect(r.score.total).toBeGreaterThan(0);
  });
});

const pool: Step[] = [...hydra.flat(), ...sweAgentSteps(MOTO_KIMI)];

/** Random trajectories made of real steps (with random repeats, so retries and cycles occur). */
const trajectories = fc.array(fc.tuple(fc.nat(pool.length - 1), fc.boolean(), fc.integer({ min: 0, max: 2 })), { minLength: 1, maxLength: 40 }).map((picks) => {
  const steps: Step[] = [];
  for (const [i, repeat, code] of picks) {
    const src = repeat && steps.length > 0 ? steps[steps.length - 1]! : pool[i]!;
    steps.push({ ...src, t: steps.length, exitCode: code });
  }
  return steps;
});

describe('online equals batch', () => {
  for (const [name, reference] of [
    ['pta', { kind: 'pta', pta: hydraPta }],
    ['prior', prior],
  ] as const) {
    it(`after every step the online score === the batch score of that prefix (${name})`, () => {
      fc.assert(
        fc.property(trajectories, (steps) => {
          const online = createScorer({ reference, analyzers });
          let sum = 0;
          steps.forEach((step, i) => {
            const r = online.push(step);
            sum += r.reward;
            const batch = scoreSteps(steps.slice(0, i + 1), { reference, analyzers });
            sameScore(r.score, (batch.results[i] as { score: ScoreVector }).score);
            sameScore(online.score(), batch.report.score);
            expect(r.signals).toEqual(batch.results[i]?.signals);
          });
          expect(Math.abs(sum - online.score().total)).toBeLessThan(1e-9);
        }),
        { numRuns: 25 },
      );
    });
  }
});

describe('scorer options', () => {
  it('uses the given policy (a step budget stops at the crossing step) and config (weights)', async () => {
    const { resolveConfig, resolvePolicy } = await import('../../src/core/index.js');
    const policy = resolvePolicy({ budget: { maxSteps: 5 } });
    const config = resolveConfig({ priorWeights: { coh: 1, temp: 0, focus: 0, verify: 0, brevity: 0, edit: 0, settle: 0 } });
    if (!policy.ok || !config.ok) throw new Error('bad test input');
    const { results, report } = scoreSteps(hydra[0]!, { reference: prior, analyzers, policy: policy.value, config: config.value });
    const budget = results.flatMap((r) => r.signals.filter((s) => s.kind === 'budget').map((s) => [r.t, s.severity]));
    expect(budget).toEqual([[5, 'stop']]);
    expect(report.score.total).toBe(100 * report.score.coh);
  });
});
