import { describe, expect, it } from 'vitest';
import { splitCalibration, splitTasks, type TradeoffRun } from '../../src/core/calibrate/index.js';
import { distinct, trun } from './states.js';

const TASKS = Array.from({ length: 17 }, (_, i) => `org__repo-${i}`);

describe('splitTasks: deterministic and disjoint by task', () => {
  it('puts every task on exactly one side, half held out', () => {
    const s = splitTasks([...TASKS, ...TASKS], 7);
    expect(s.calibration.length + s.holdout.length).toBe(17);
    expect(s.holdout).toHaveLength(Math.round(17 * 0.5));
    expect(s.calibration.filter((t) => s.holdout.includes(t))).toEqual([]);
    expect([...s.calibration, ...s.holdout].sort()).toEqual([...TASKS].sort());
  });

  it('gives the same split for the same seed whatever the input order, another for another seed', () => {
    const a = splitTasks(TASKS, 7);
    expect(splitTasks([...TASKS].reverse(), 7)).toEqual(a);
    const others = [1, 2, 3, 4].map((seed) => splitTasks(TASKS, seed).holdout.join());
    expect(others.some((h) => h !== a.holdout.join())).toBe(true);
  });

  it('draws further splits of one seed (repeat 1, 2, ...) that differ from the first and from each other', () => {
    expect(splitTasks(TASKS, 7, 0.5, 0)).toEqual(splitTasks(TASKS, 7));
    const holdouts = [0, 1, 2, 3, 4].map((r) => splitTasks(TASKS, 7, 0.5, r).holdout.join());
    expect(new Set(holdouts).size).toBe(5);
    expect(splitTasks(TASKS, 7, 0.5, 3)).toEqual(splitTasks([...TASKS].reverse(), 7, 0.5, 3));
  });

  it('honours the hold-out share', () => {
    expect(splitTasks(TASKS, 1, 0.25).holdout).toHaveLength(4);
  });
});

describe('splitCalibration: chosen on one half, measured on the other', () => {
  // Every task: one passing clean run and one failing run with a 3-retry episode (stopped by blindRetry 3).
  const runs: TradeoffRun[] = TASKS.slice(0, 8).flatMap((task) => [
    trun(`${task}/p`, task, true, distinct(4, 'c')),
    trun(`${task}/f`, task, false, [{ stage: 'E', hash: 'x' }, ...Array.from({ length: 4 }, () => ({ stage: 'V' as const, hash: 'y' })), ...distinct(2, 'z')]),
  ]);
  const candidates = { blindRetry: [3], regressionLoop: [], cycle: [], explorationStreak: [], noAction: [], lowScore: [] };

  it('two folds, tasks disjoint, held-out numbers counted on the other half only', () => {
    // Each half has 4 passing runs: a 95 % upper bound of 52.7 % even with none stopped, so the bound is 60 %.
    const r = splitCalibration(runs, 3, 0.5, { candidates, constrained: ['referenceFree'], maxFalseStop: 0.6 });
    if (!r.ok) throw new Error(r.error);
    expect(r.value.folds).toHaveLength(2);
    const [f1, f2] = r.value.folds;
    expect(f1!.calibrationTasks.filter((t) => f1!.holdoutTasks.includes(t))).toEqual([]);
    expect(f2!.calibrationTasks).toEqual(f1!.holdoutTasks);
    expect(f1!.settings.blindRetry).toBe(3);
    expect(f1!.outOfSample.referenceFree.passing + f1!.outOfSample.referenceFree.failing).toBe(2 * f1!.holdoutTasks.length);
    expect(f1!.outOfSample.referenceFree).toMatchObject({ passingStopped: 0, failingStopped: f1!.holdoutTasks.length });
    expect(r.value.pooledOutOfSample.referenceFree).toMatchObject({ passing: 8, failing: 8, failingStopped: 8, failingStepsSaved: 8 * 2 });
  });

  it('errors when a half would be empty', () => {
    expect(splitCalibration(runs.slice(0, 2), 1, 0.5).ok).toBe(false);
    expect(splitCalibration(runs, 1, 1).ok).toBe(false);
  });
});
