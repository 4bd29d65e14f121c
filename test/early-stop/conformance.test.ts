/**
 * The one conformance suite of the early-stop kinds, written against the engine's own
 * interface (`createEarlyStop(policy).add(state, total, pPass)`), so it holds whatever
 * detector each kind runs behind it. Every key of `Policy` needs a case here (the table
 * is typed by it): one policy per strictness with only that kind on, fed every real
 * corpus run with its running composite (pPass: the composite / 100, a stand-in series
 * for the forecast kind). Per-kind thresholds and messages are pinned in early-stop.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { createEarlyStop } from '../../src/core/early-stop/index.js';
import type { Policy } from '../../src/core/policy.js';
import { UNIFORM_PRIOR } from '../../src/core/prior.js';
import { scoreSteps } from '../../src/core/scorer.js';
import type { Signal, SignalKind, State } from '../../src/core/types.js';
import { defaultAnalyzers } from '../../src/syntax/index.js';
import { corpusRuns, extraRuns } from '../fixtures/corpus-runs.js';

/** Every kind off. */
const OFF: Policy = {
  blindRetry: { warn: null, stop: null },
  regressionLoop: { warn: null, stop: null },
  cycle: { warn: null, stop: null, minBlock: 2, maxBlock: 4 },
  explorationStreak: { warn: null, stop: null, resetOnWrite: true },
  noAction: { warn: null, stop: null },
  lowScore: { floor: 100, minSteps: 0, severity: null },
  lowForecast: { floor: 1, minSteps: 0, severity: null },
  budget: { maxSteps: null, maxTokens: null, severity: 'stop' },
};

interface KindCase {
  signal: SignalKind;
  /** A policy with only this kind on; a larger `k` is stricter to meet (a higher count, a lower floor, a larger budget). */
  at(k: number): Policy;
  /** Count kinds fire a warn and a stop per episode (warn first); the others one configured severity. */
  levels: boolean;
}

const CASES: Record<keyof Policy, KindCase> = {
  blindRetry: { signal: 'blind_retry', levels: true, at: (k) => ({ ...OFF, blindRetry: { warn: k, stop: k + 1 } }) },
  regressionLoop: { signal: 'regression_loop', levels: true, at: (k) => ({ ...OFF, regressionLoop: { warn: k, stop: k + 1 } }) },
  cycle: { signal: 'cycle', levels: true, at: (k) => ({ ...OFF, cycle: { warn: k + 1, stop: k + 2, minBlock: 2, maxBlock: 4 } }) },
  explorationStreak: { signal: 'exploration_streak', levels: true, at: (k) => ({ ...OFF, explorationStreak: { warn: 3 * k, stop: 3 * k + 3, resetOnWrite: true } }) },
  noAction: { signal: 'no_action', levels: true, at: (k) => ({ ...OFF, noAction: { warn: k, stop: k + 1 } }) },
  lowScore: { signal: 'low_score', levels: false, at: (k) => ({ ...OFF, lowScore: { floor: 70 - 15 * k, minSteps: 3, severity: 'warn' } }) },
  lowForecast: { signal: 'low_forecast', levels: false, at: (k) => ({ ...OFF, lowForecast: { floor: 0.7 - 0.15 * k, minSteps: 3, severity: 'warn' } }) },
  budget: { signal: 'budget', levels: false, at: (k) => ({ ...OFF, budget: { maxSteps: 10 * k, maxTokens: 20_000 * k, severity: 'warn' } }) },
};

interface Run {
  name: string;
  states: State[];
  totals: number[];
}

const analyzers = defaultAnalyzers();
const runs: Run[] = [...corpusRuns(), ...extraRuns()].map(({ name, steps }) => {
  const { results } = scoreSteps(steps, { reference: { kind: 'prior', prior: UNIFORM_PRIOR }, analyzers });
  return { name, states: results.map((r) => r.state), totals: results.map((r) => r.score.total) };
});

/** Feeds a run to a fresh engine: the signals each add returned, by state, and the engine's own list. */
function feed(policy: Policy, run: Run): { byStep: Signal[][]; all: readonly Signal[] } {
  const engine = createEarlyStop(policy);
  const byStep = run.states.map((s, i) => engine.add(s, run.totals[i]!, run.totals[i]! / 100));
  return { byStep, all: engine.signals() };
}

describe('early-stop kinds', () => {
  it('every kind off: no signal on any run', () => {
    for (const run of runs) expect(feed(OFF, run).all, run.name).toEqual([]);
  });
});

describe.each(Object.keys(CASES).map((k) => [k as keyof Policy]))('early-stop conformance: %s', (key) => {
  const kind = CASES[key];

  it('fires only its kind, at the state it is fed, over steps that end there, in order', () => {
    let fired = 0;
    for (const run of runs) {
      const { byStep, all } = feed(kind.at(1), run);
      expect(all, run.name).toEqual(byStep.flat());
      byStep.forEach((signals, i) => {
        const t = run.states[i]!.t;
        for (const s of signals) {
          const where = `${run.name} step ${i}: ${JSON.stringify(s)}`;
          fired++;
          expect(s.kind, where).toBe(kind.signal);
          expect(s.t, where).toBe(t);
          expect(s.steps.length, where).toBeGreaterThan(0);
          expect(s.steps.at(-1), where).toBe(t);
          expect(
            s.steps.every((x, j) => j === 0 || x > s.steps[j - 1]!),
            where,
          ).toBe(true);
          expect(s.message.length, where).toBeGreaterThan(0);
          if (!kind.levels) expect(s.severity, where).toBe('warn');
        }
      });
    }
    // A kind that never fires on real runs at its most sensitive would not be tested by this suite.
    expect(fired).toBeGreaterThan(0);
  });

  it('fires the same signals again on the same input', () => {
    for (const run of runs.slice(0, 20)) expect(feed(kind.at(1), run).all).toEqual(feed(kind.at(1), run).all);
  });

  it('fires no earlier at a stricter setting, and not at all when off', () => {
    for (const run of runs) {
      const first = [1, 2, 3].map((k) => feed(kind.at(k), run).all[0]?.t ?? Infinity);
      expect(first[1]!, run.name).toBeGreaterThanOrEqual(first[0]!);
      expect(first[2]!, run.name).toBeGreaterThanOrEqual(first[1]!);
    }
  });

  // Each kind gets the firing rule of its shape (crossing or warn/stop levels), so no test shows as skipped.
  if (!kind.levels)
    it('fires once per crossing: never at two states in a row', () => {
      for (const run of runs) {
        const { byStep } = feed(kind.at(1), run);
        byStep.forEach((signals, i) => {
          if (i > 0 && signals.length > 0) expect(byStep[i - 1]!, `${run.name} step ${i}`).toEqual([]);
        });
      }
    });

  if (kind.levels)
    it('fires a stop of an episode only after (or with) its warn, each once', () => {
      for (const run of runs) {
        const { all } = feed(kind.at(1), run);
        const seen = new Set<string>();
        for (const s of all) {
          const key = `${s.severity} ${s.steps.join(',')}`;
          expect(seen.has(key), `${run.name}: ${key} twice`).toBe(false);
          seen.add(key);
          if (s.severity !== 'stop') continue;
          const warn = all.find((w) => w.severity === 'warn' && w.steps[0] === s.steps[0] && w.t <= s.t);
          expect(warn, `${run.name}: stop ${JSON.stringify(s)} without its warn`).toBeDefined();
        }
      }
    });
});
