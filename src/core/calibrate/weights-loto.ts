/**
 * Leave-one-task-out evaluation of the weight fit: for each task, weights
 * fitted on the OTHER tasks' runs score that task's runs; the pooled
 * held-out composites give the fit's AUROC, set beside the paper's weights
 * and each signal alone. The fitted weights are recommended only when their
 * held-out AUROC with a reference (the scores they weigh) beats the paper's weights clearly: the 95 % interval of
 * the difference, tasks resampled (each with all its runs), lies above 0. On the 101 runs with a reference of the
 * shared calibration set (12 failing) a point estimate of 0.462 against 0.413, both below chance, recommended
 * struct 0.95 / coh 0.05 and `--config-out` wrote it (audit19); the interval there is [-0.128, +0.196].
 */
import type { SignalValues } from '../composite.js';
import { composite } from '../composite.js';
import type { Weights } from '../config.js';
import { auroc } from '../stats/auroc.js';
import { bootstrapDraws, resamplable, type BootstrapOptions } from '../stats/bootstrap.js';
import type { Interval } from '../stats/interval.js';
import { randomIndex } from '../stats/rng.js';
import { MODES, type ModeName } from './tradeoff-types.js';
import { aurocsWithoutEachTask } from './loto-auroc.js';
import { weightsWithinSource, type WeightsWithinSource } from './weights-sources.js';
import { aurocWith, bestWeights, FIT_MODE, fitWeights, meanDefined, objective, signalAuroc, simplexGrid, type WeightSample } from './weights-fit.js';

/** One held-out task: the tasks its weights were fitted on (never itself) and those weights. */
export interface LotoFold {
  task: string;
  trainingTasks: string[];
  weights: Weights;
}

/** AUROCs in one mode. */
export interface WeightAurocs {
  runs: number;
  /** Of `runs`, the passing and the failing ones: each AUROC is pooled over them, whatever their sources. */
  passing: number;
  failing: number;
  /** Fitted weights, each task scored by weights fitted without it. */
  fittedHeldOut: number | null;
  /** Weights fitted on all runs, scored on the same runs (in-sample: optimistic). */
  fittedInSample: number | null;
  paper: number | null;
  signals: Partial<Record<keyof SignalValues, number | null>>;
  /** The same candidates within each source, with n and interval (weights-sources.ts); only in the mode the weights govern. */
  withinSource?: WeightsWithinSource;
}

export interface WeightsReport {
  step: number;
  runs: { total: number; withReference: number; passing: number; failing: number; tasks: number };
  paper: Weights;
  /** Weights fitted on every run. */
  fitted: Weights;
  /** What to load: the fitted weights when their held-out objective beats the paper's, else the paper's. */
  recommended: Weights;
  decision: 'fitted' | 'paper';
  /** Held-out AUROC of the fit minus the paper's, with a reference, and its 95 % interval (tasks resampled; null: < 5 tasks). */
  difference: { estimate: number | null; interval: Interval | null };
  reason: string;
  /** Per mode. `reference` is the one the weights govern, fitted and judged on; `referenceFree` shows what they would give if reference-free scores read them (they do not: priorWeights). */
  auroc: Record<ModeName, WeightAurocs>;
  folds: LotoFold[];
}

/**
 * Per task, the weights fitted on every other task's runs: what {@link fitWeights} picks on them, with each fold's
 * AUROCs taken from one count over all runs per grid weight and mode (loto-auroc.ts) instead of a sort per fold.
 */
export function lotoFolds(samples: readonly WeightSample[], grid: readonly Weights[], paper: Weights): LotoFold[] {
  const tasks = [...new Set(samples.map((s) => s.task))].sort();
  const index = new Map(tasks.map((t, k) => [t, k]));
  // The runs scored with a reference (the mode the weights govern), and each task's runs among them.
  const modes = [FIT_MODE].map((mode) => {
    const runs = samples.filter((s) => s[mode] !== null);
    const byTask = tasks.map((): number[] => []);
    runs.forEach((s, i) => byTask[index.get(s.task)!]!.push(i));
    return { mode, runs, byTask, passed: runs.map((s) => s.passed) };
  });
  // held[m][k]: per task, the AUROC of mode m under grid weights k with that task left out (NaN: undefined).
  const held = modes.map(({ mode, runs, byTask, passed }) =>
    grid.map((w) => {
      const x = Float64Array.from(runs, (s) => composite(s[mode]!, w).total);
      // A NaN score sorts where no comparison can follow it: with any, every fold is fitted the slow way (below).
      return x.some(Number.isNaN) ? undefined : aurocsWithoutEachTask({ x, passed, byTask });
    }),
  );
  const slow = held.some((m) => m.some((a) => a === undefined));
  return tasks.map((task, t) => {
    const training = slow ? samples.filter((s) => s.task !== task) : undefined;
    const weights = bestWeights(grid, paper, (w, k) =>
      training !== undefined
        ? objective(training, w)
        : meanDefined(
            held.map((m) => {
              const a = m[k]![t]!;
              return Number.isNaN(a) ? null : a;
            }),
          ),
    );
    return { task, trainingTasks: tasks.filter((x) => x !== task), weights };
  });
}

/**
 * The held-out fit's AUROC minus the paper weights' on the same runs (those with a reference), and its percentile
 * interval resampling tasks, each with all its runs: the two are read on the same resample, so the interval is
 * of the paired difference. Each run keeps the weights its fold fitted without its task.
 */
function heldOutDifference(samples: readonly WeightSample[], folds: readonly LotoFold[], paper: Weights): { estimate: number | null; interval: Interval | null } {
  const byTask = new Map(folds.map((f) => [f.task, f.weights]));
  const tasks = new Map<string, Array<{ passed: boolean; fitted: number; paper: number }>>();
  for (const s of samples) {
    const v = s[FIT_MODE];
    if (v === null) continue;
    const runs = tasks.get(s.task) ?? [];
    tasks.set(s.task, runs);
    runs.push({ passed: s.passed, fitted: composite(v, byTask.get(s.task)!).total, paper: composite(v, paper).total });
  }
  const groups = [...tasks.values()];
  const diff = (picked: ReadonlyArray<(typeof groups)[number]>): number | null => {
    const runs = picked.flat();
    const fitted = auroc(
      runs.filter((r) => r.passed).map((r) => r.fitted),
      runs.filter((r) => !r.passed).map((r) => r.fitted),
    );
    const pap = auroc(
      runs.filter((r) => r.passed).map((r) => r.paper),
      runs.filter((r) => !r.passed).map((r) => r.paper),
    );
    return fitted === null || pap === null ? null : fitted.auroc - pap.auroc;
  };
  const estimate = diff(groups);
  if (estimate === null || !resamplable(groups.length)) return { estimate, interval: null };
  return { estimate, interval: bootstrapDraws((random) => diff(groups.map(() => groups[randomIndex(random, groups.length)]!))) };
}

function heldOutAuroc(samples: readonly WeightSample[], folds: readonly LotoFold[], mode: ModeName): number | null {
  const byTask = new Map(folds.map((f) => [f.task, f.weights]));
  const pos: number[] = [];
  const neg: number[] = [];
  for (const s of samples) {
    const v = s[mode];
    if (v !== null) (s.passed ? pos : neg).push(composite(v, byTask.get(s.task)!).total);
  }
  return auroc(pos, neg)?.auroc ?? null;
}

/** Fits the weights on every run, evaluates the fit leave-one-task-out, and recommends weights. */
export function calibrateWeights(samples: readonly WeightSample[], paper: Weights, step = 0.05, options: BootstrapOptions = {}): WeightsReport {
  const grid = simplexGrid(step);
  const fitted = fitWeights(samples, grid, paper);
  const folds = lotoFolds(samples, grid, paper);
  const aurocs = {} as Record<ModeName, WeightAurocs>;
  for (const mode of MODES) {
    const signals: Array<keyof SignalValues> = mode === 'reference' ? ['struct', 'cov', 'coh', 'temp'] : ['coh', 'temp'];
    const scored = samples.filter((s) => s[mode] !== null);
    aurocs[mode] = {
      runs: scored.length,
      passing: scored.filter((s) => s.passed).length,
      failing: scored.filter((s) => !s.passed).length,
      fittedHeldOut: heldOutAuroc(samples, folds, mode),
      fittedInSample: aurocWith(samples, fitted, mode),
      paper: aurocWith(samples, paper, mode),
      signals: Object.fromEntries(signals.map((k) => [k, signalAuroc(samples, k, mode)])),
      ...(mode === FIT_MODE ? { withinSource: weightsWithinSource(samples, folds, fitted, paper, options) } : {}),
    };
  }
  // Judged where the weights apply: with a reference (reference-free scores are weighed by priorWeights).
  const held = aurocs[FIT_MODE].fittedHeldOut;
  const pap = aurocs[FIT_MODE].paper;
  const difference = heldOutDifference(samples, folds, paper);
  const iv = difference.interval;
  const wins = held !== null && pap !== null && iv !== null && iv.lo > 0;
  const fmt = (x: number | null) => (x === null ? 'undefined' : x.toFixed(3));
  const signed = (x: number) => `${x >= 0 ? '+' : ''}${x.toFixed(3)}`;
  const diffText = difference.estimate === null ? '' : `, difference ${signed(difference.estimate)} ${iv ? `[${signed(iv.lo)}, ${signed(iv.hi)}] (tasks resampled)` : '[-] (fewer than 5 tasks)'}`;
  const verdict = wins ? 'the fit is clearly better held out' : held !== null && pap !== null && held > pap ? "not clearly better: the paper's weights stay" : "the paper's weights stay";
  return {
    step,
    runs: {
      total: samples.length,
      withReference: samples.filter((s) => s.reference !== null).length,
      passing: samples.filter((s) => s.passed).length,
      failing: samples.filter((s) => !s.passed).length,
      tasks: folds.length,
    },
    paper,
    fitted,
    recommended: wins ? fitted : paper,
    decision: wins ? 'fitted' : 'paper',
    difference,
    reason: `held-out AUROC of the fit with a reference ${fmt(held)} vs the paper's weights ${fmt(pap)} on the ${aurocs[FIT_MODE].runs} runs with one${diffText}: ${verdict}`,
    auroc: aurocs,
    folds,
  };
}
