import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { createEarlyStop } from '../../src/core/early-stop/index.js';
import { DEFAULT_POLICY, resolvePolicy, type Policy } from '../../src/core/policy.js';
import { UNIFORM_PRIOR } from '../../src/core/prior.js';
import { scoreSteps } from '../../src/core/scorer.js';
import { labelSteps } from '../../src/core/state-builder.js';
import type { Signal, State, Step } from '../../src/core/types.js';
import { parseTrajectoryText } from '../../src/formats/index.js';
import { defaultAnalyzers } from '../../src/syntax/index.js';
import { st } from '../fixtures/make-state.js';

/** The detectors' mechanics are tested on fixed levels (the pre-calibration defaults), not on whatever DEFAULT_POLICY ships. */
const FIXED: Policy = {
  ...DEFAULT_POLICY,
  blindRetry: { warn: 3, stop: 6 },
  regressionLoop: { warn: 3, stop: null },
  cycle: { warn: 3, stop: null, minBlock: 2, maxBlock: 4 },
  explorationStreak: { warn: 30, stop: null, resetOnWrite: true },
  noAction: { warn: null, stop: null },
  lowScore: { floor: 20, minSteps: 15, severity: 'warn' },
};

function feed(states: State[], policy: Policy = FIXED, totals: number[] = []): Signal[][] {
  const es = createEarlyStop(policy);
  return states.map((s, i) => es.add(s, totals[i] ?? 100));
}
const policyOf = (input: unknown): Policy => {
  const r = resolvePolicy(input, FIXED);
  if (!r.ok) throw new Error(r.error);
  return r.value;
};
const firedAt = (out: Signal[][]) => out.flatMap((sigs, i) => sigs.map((s) => [i, s.kind, s.severity]));

describe('early stop: blind retry', () => {
  it('warns at the 3rd retry and stops at the 6th of one episode, once each', () => {
    const states = Array.from({ length: 9 }, (_, t) => st(t, 'V', { hash: 'pytest' }));
    const out = feed(states);
    expect(firedAt(out)).toEqual([
      [3, 'blind_retry', 'warn'],
      [6, 'blind_retry', 'stop'],
    ]);
    expect(out[3]?.[0]?.steps).toEqual([0, 1, 2, 3]);
    expect(out[3]?.[0]?.message).toContain('3 blind retries');
  });

  it("names every earlier step the episode repeats, not only the first retry's (CodeR pylint-6506: step 12 repeated step 8)", () => {
    const a = (t: number) => st(t, 'E', { hash: 'open run.py' });
    const b = (t: number) => st(t, 'E', { hash: 'open __init__.py' });
    // 2 repeats 1, 3 repeats 0 (before the episode), 4 repeats 2 (a retry of the episode: nothing new to name).
    const out = feed([a(0), b(1), b(2), a(3), b(4)]);
    expect(firedAt(out)).toEqual([[4, 'blind_retry', 'warn']]);
    expect(out[4]?.[0]?.steps).toEqual([1, 2, 3, 4]);
    expect(out[4]?.[0]?.message).toBe('3 blind retries in a row (steps 1 and 0 repeated with nothing changed; warn threshold)');
    // One action retried names its one step, as before.
    const same = feed(Array.from({ length: 4 }, (_, t) => a(t)));
    expect(same[3]?.[0]?.message).toBe('3 blind retries in a row (step 0 repeated with nothing changed; warn threshold)');
  });

  it('a new episode after a change fires again', () => {
    const r = (t: number) => st(t, 'V', { hash: 'pytest' });
    const states = [r(0), r(1), r(2), r(3), st(4, 'I', { changesFile: true }), r(5), r(6), r(7), r(8)];
    expect(firedAt(feed(states))).toEqual([
      [3, 'blind_retry', 'warn'],
      [8, 'blind_retry', 'warn'],
    ]);
  });
});

describe('early stop: regression loop', () => {
  it('warns when the 3rd failed cycle completes', () => {
    const states: State[] = [];
    for (let c = 0; c < 4; c++) {
      states.push(st(states.length, 'I', { file: 'a.py', changesFile: true }));
      states.push(st(states.length, 'V', { failed: true }));
    }
    const out = feed(states);
    expect(firedAt(out)).toEqual([[5, 'regression_loop', 'warn']]);
    expect(out[5]?.[0]?.steps).toEqual([0, 1, 2, 3, 4, 5]);
  });
});

describe('early stop: cycle', () => {
  it('warns when a 2-block occurs the 3rd time in a row, once', () => {
    const states = [...'xABABABABAB'].map((h, t) => st(t, 'E', { hash: h }));
    const out = feed(states, policyOf({ explorationStreak: { warn: null } }));
    expect(firedAt(out).filter(([, k]) => k === 'cycle')).toEqual([[6, 'cycle', 'warn']]);
    expect(out[6]?.find((s) => s.kind === 'cycle')?.steps).toEqual([1, 2, 3, 4, 5, 6]);
  });
});

describe('early stop: exploration streak', () => {
  it('warns at the configured length; O states are neutral, other stages reset', () => {
    const p = policyOf({ explorationStreak: { warn: 3, stop: 5 } });
    const states = [st(0, 'E'), st(1, 'O'), st(2, 'E'), st(3, 'V'), st(4, 'E'), st(5, 'E'), st(6, 'O'), st(7, 'E'), st(8, 'E'), st(9, 'E'), st(10, 'E')];
    const out = feed(states, p);
    expect(firedAt(out)).toEqual([
      [7, 'exploration_streak', 'warn'],
      [9, 'exploration_streak', 'stop'],
    ]);
    expect(out[7]?.[0]?.steps).toEqual([4, 5, 7]);
  });
});

describe('early stop: exploration streak, writing a reproduction script', () => {
  it('an E state that writes a file breaks the streak like an I or V state', () => {
    const p = policyOf({ explorationStreak: { warn: 3, stop: null } });
    const script = (t: number) => st(t, 'E', { kind: 'create', file: 'reproduce.py', changesFile: true });
    const runScript = (t: number) => st(t, 'E', { kind: 'run_script', file: 'reproduce.py', command: true });
    expect(firedAt(feed([st(0, 'E'), st(1, 'E'), script(2), runScript(3), st(4, 'E'), script(5), st(6, 'E'), st(7, 'E')], p))).toEqual([]);
    expect(firedAt(feed([st(0, 'E'), st(1, 'E'), script(2), runScript(3), st(4, 'E'), st(5, 'E')], p))).toEqual([[5, 'exploration_streak', 'warn']]);
  });

  it('resetOnWrite: false counts every E state, as the spec does (O still neutral)', () => {
    const p = policyOf({ explorationStreak: { warn: 3, stop: 5, resetOnWrite: false } });
    const script = (t: number) => st(t, 'E', { kind: 'create', file: 'reproduce.py', changesFile: true });
    expect(firedAt(feed([st(0, 'E'), script(1), st(2, 'O'), script(3), st(4, 'E'), st(5, 'E')], p))).toEqual([
      [3, 'exploration_streak', 'warn'],
      [5, 'exploration_streak', 'stop'],
    ]);
    expect(resolvePolicy({ explorationStreak: { resetOnWrite: 'no' } }).ok).toBe(false);
  });

  /** The exploration-streak signals the default policy fires on a real run, as [step, severity, first step of the streak]. */
  function streakSignals(steps: Step[]): Array<[number, string, number]> {
    const { report } = scoreSteps(steps, { reference: { kind: 'prior', prior: UNIFORM_PRIOR }, analyzers: defaultAnalyzers() });
    return report.signals.filter((s) => s.kind === 'exploration_streak').map((s) => [s.t, s.severity, s.steps[0]!]);
  }
  const parse = (file: URL, gz: boolean): Step[] => {
    const bytes = readFileSync(file);
    const r = parseTrajectoryText((gz ? gunzipSync(bytes) : bytes).toString('utf8'), 'auto', file.pathname);
    if (!r.ok) throw r.error;
    return r.value.steps;
  };

  it('the README showcase run: 4 reproduction scripts written and run in steps 0-17 are no 15-step exploration streak', () => {
    // examples/runs/mini-swe-agent/deepseek_bench1/django__django-13401.traj.json (mini-swe-agent 2.2.7 + deepseek-chat;
    // sources in examples/runs/README.md): `cat > test_issue.py` (4), test_field_equality.py (12) and
    // test_abstract_fields.py (16) written and run between greps and reads, with pip installs (O); the default warn at 15
    // fired at step 17 ("15 exploration steps in a row without implementing or verifying").
    const steps = parse(new URL('../../examples/runs/mini-swe-agent/deepseek_bench1/django__django-13401.traj.json', import.meta.url), false);
    const labels = labelSteps(steps.slice(0, 18), defaultAnalyzers()).map((x) => x.state);
    expect(labels.filter((s) => s.stage === 'E' && s.changesFile).map((s) => s.t)).toEqual([4, 12, 16]);
    expect(streakSignals(steps.slice(0, 18))).toEqual([]);
  });

  it("a passing CodeR run: the Reproducer's writing of reproduce.py does not count toward the streak", () => {
    // test/fixtures/coder__sympy__sympy-13971.traj.gz (CodeR + GPT-4, resolved): the Reproducer creates and edits
    // reproduce.py (1-2) and runs it, the Fault Localizer and the Programmer read; the warn at 15 fired at step 17 on a
    // streak from step 1, now the streak starts after the edit at 2.
    const steps = parse(new URL('../fixtures/coder__sympy__sympy-13971.traj.gz', import.meta.url), true);
    const fired = streakSignals(steps);
    expect(fired.every(([, , first]) => first > 2)).toBe(true);
    expect(fired.some(([t]) => t === 17)).toBe(false);
  });
});

describe('early stop: no action', () => {
  it('warns and stops at steps in a row with nothing to run; an action resets the count', () => {
    const p = policyOf({ noAction: { warn: 2, stop: 3 } });
    const none = (t: number) => st(t, 'O', { kind: 'none' });
    const states = [st(0, 'E'), none(1), none(2), st(3, 'E'), none(4), none(5), none(6)];
    const out = feed(states, p);
    expect(firedAt(out)).toEqual([
      [2, 'no_action', 'warn'],
      [5, 'no_action', 'warn'],
      [6, 'no_action', 'stop'],
    ]);
    expect(out[6]?.[0]?.steps).toEqual([4, 5, 6]);
    expect(out[6]?.[0]?.message).toContain('3 steps in a row with no action to run');
  });
});

describe('early stop: low score', () => {
  it('fires once when below the floor after the minimum steps, re-arms after recovering', () => {
    const p = policyOf({ lowScore: { floor: 20, minSteps: 3 } });
    const states = Array.from({ length: 8 }, (_, t) => st(t, 'E'));
    const out = feed(states, p, [5, 5, 5, 5, 30, 10, 10, 10]);
    expect(firedAt(out)).toEqual([
      [2, 'low_score', 'warn'],
      [5, 'low_score', 'warn'],
    ]);
  });

  it('is off with severity null', () => {
    const p = policyOf({ lowScore: { severity: null, minSteps: 1 } });
    expect(firedAt(feed([st(0, 'E')], p, [0]))).toEqual([]);
  });
});

describe('early stop: budget', () => {
  it('fires once when the step budget is exceeded and once for tokens', () => {
    const p = policyOf({ budget: { maxSteps: 3, maxTokens: 25 } });
    const states = Array.from({ length: 6 }, (_, t) => st(t, 'E', { cost: 10 }));
    expect(firedAt(feed(states, p))).toEqual([
      [2, 'budget', 'stop'],
      [3, 'budget', 'stop'],
    ]);
  });

  it('is off by default', () => {
    const states = Array.from({ length: 40 }, (_, t) => st(t, t % 2 ? 'I' : 'V', { cost: 1e6 }));
    expect(firedAt(feed(states)).filter(([, k]) => k === 'budget')).toEqual([]);
  });
});
