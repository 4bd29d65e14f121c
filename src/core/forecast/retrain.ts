/**
 * Retraining the forecaster from finished sessions (`serve --forecast-learn`):
 * a candidate default model is fitted on the sessions, checked held out
 * (task-disjoint folds: each session predicted by a model fitted without its
 * task) against the model in force on the same sessions, and accepted only if
 * it is not worse: log loss no higher and end-of-run AUROC no lower (where
 * defined). Models matched to an agent or model are kept as they are.
 */
import { fitForecastModel, type ForecastRun } from './fit.js';
import { horizonAurocs, outOfFold, predictRun, type HorizonAurocs } from './evaluate.js';
import { selectModel, type ForecastFile } from './model.js';

export interface RetrainOptions {
  /** Fewest sessions (default 20) and fewest of each outcome (default 5) to try. */
  minRuns?: number;
  minClass?: number;
  folds?: number;
  seed?: number;
  /** ISO time stamp of the candidate. */
  now: string;
}

export type RetrainResult = { kind: 'skipped'; reason: string } | { kind: 'rejected' | 'accepted'; reason: string; heldOut: HorizonAurocs; inForce: HorizonAurocs; candidate: ForecastFile };

const TOL = 1e-12;

/** Fits and checks a candidate; the caller swaps it in when `accepted`. */
export function retrainForecast(runs: readonly ForecastRun[], current: ForecastFile, o: RetrainOptions): RetrainResult {
  const minRuns = o.minRuns ?? 20;
  const minClass = o.minClass ?? 5;
  const passing = runs.filter((r) => r.passed).length;
  if (runs.length < minRuns || passing < minClass || runs.length - passing < minClass) {
    return { kind: 'skipped', reason: `${runs.length} finished sessions with an outcome (${passing} passing): need ${minRuns}, with ${minClass} of each outcome` };
  }
  const tasks = new Set(runs.map((r) => r.task)).size;
  if (tasks < 2) return { kind: 'skipped', reason: 'sessions of one task only: no task-disjoint check possible' };
  const folds = Math.min(o.folds ?? 5, tasks);
  const held = outOfFold(runs, folds, o.seed ?? 1);
  // Only sessions predicted on both sides are compared.
  const inForcePreds = runs.map((r, i) => {
    if (held[i] === null) return null;
    const m = selectModel(current, r.agent, r.model);
    return m === undefined ? null : predictRun(m, r);
  });
  const both = held.map((h, i) => (h !== null && inForcePreds[i] !== null ? h : null));
  const heldOut = horizonAurocs(runs, both);
  const inForce = horizonAurocs(
    runs,
    inForcePreds.map((p, i) => (both[i] !== null ? p : null)),
  );
  const defaultModel = fitForecastModel(runs);
  const candidate: ForecastFile = {
    ...current,
    createdAt: o.now,
    models: [defaultModel, ...current.models.filter((m) => m.match.agent !== undefined || m.match.model !== undefined)],
    evaluation: { retrainedOn: runs.length, heldOut, inForce },
  };
  const worseLoss = heldOut.logLoss === null || inForce.logLoss === null || heldOut.logLoss > inForce.logLoss + TOL;
  const worseAuroc = heldOut.end !== null && inForce.end !== null && heldOut.end < inForce.end - TOL;
  const f = (x: number | null) => (x === null ? '-' : x.toFixed(4));
  const numbers = `held-out log loss ${f(heldOut.logLoss)} vs ${f(inForce.logLoss)} in force, end AUROC ${f(heldOut.end)} vs ${f(inForce.end)}`;
  if (worseLoss || worseAuroc) return { kind: 'rejected', reason: `candidate is worse: ${numbers}`, heldOut, inForce, candidate };
  return { kind: 'accepted', reason: `candidate is not worse: ${numbers}`, heldOut, inForce, candidate };
}
