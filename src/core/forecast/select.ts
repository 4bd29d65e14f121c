/**
 * Choosing the forecaster's configuration held out, by the within-source
 * figure (issue 26): the feature set and the penalty by leave-one-source-out
 * AUROC (each source ranked by a model fitted without it), per-source
 * weights (kappa) by task-disjoint folds (new tasks of the sources trained
 * on, where a source's own weights could help). A choice is steered only by
 * sources with at least `steerMinPerClass` passing and failing runs (10: an
 * AUROC on fewer moves by ±0.15 with one run; smaller sources are reported,
 * never used to choose). The headline figure of each steering source is
 * taken under the configuration chosen WITHOUT it, so the choice never sees
 * the source it is scored on. The weight of the within-task pairwise term
 * (fit.ts `pairWeight`) is a third axis of the same grid, only 0 unless the
 * caller gives more (train's --pair-weights).
 */
import { auroc } from '../stats/auroc.js';
import { MIN_PER_CLASS } from '../stats/separation.js';
import { endScores, leaveSourceOut, taskFoldsOut, type HeldOut } from './crossfit.js';
import { EVIDENCE_NAMES, type EvidenceName } from '../evidence/evidence.js';
import { PROCESS_FEATURES, type FeatureName } from './features.js';
import type { FitConfig } from './fit.js';
import { sourceOf, type ForecastRun } from './run.js';

/**
 * The evidence values kept as features: each of them, held out (leave one source out, the sources with 10 or more
 * passing and failing runs), raised the mean within-source AUROC when added to the process features AND lowered it
 * when dropped from the process features plus every evidence value (bench/forecast-features.ts; docs/forecast.md).
 */
export const KEPT_EVIDENCE: readonly EvidenceName[] = ['checkAfterEdit', 'reproFlipped', 'patchTestOnly', 'patchLines', 'patchCompact'];

/** The feature sets a choice is made among. */
export const FEATURE_SETS: Record<string, readonly FeatureName[]> = {
  process: PROCESS_FEATURES,
  'process + evidence': [...PROCESS_FEATURES, ...KEPT_EVIDENCE],
  'process + all evidence': [...PROCESS_FEATURES, ...EVIDENCE_NAMES],
};
export const LAMBDAS = [0.003, 0.01, 0.03] as const;
export const KAPPAS: ReadonlyArray<number | null> = [null, 10, 3];
export const STEER_MIN_PER_CLASS = 10;

/** The fixed parts of every configuration (chosen on the shared data in the analysis of docs/forecast.md). */
export const BASE_CONFIG = { endWeight: 0.7, groupSd: 1 } as const;
/** What is fitted when nothing can be chosen (fewer than 2 sources to steer): the set chosen on the shared data. */
export const DEFAULT_FIT: FitConfig = { features: FEATURE_SETS['process + evidence']!, lambda: 0.01, kappa: null, ...BASE_CONFIG };

export interface Candidate {
  set: string;
  config: FitConfig;
  /** Leave-one-source-out AUROC of each steering source (null: undefined there). */
  bySource: Record<string, number | null>;
  mean: number | null;
  /** Leave-one-source-out concordance over the (passing, failing) pairs of one source and task (reported, never chosen by). */
  withinTask: { auroc: number | null; pairs: number };
}

export interface KappaCandidate {
  kappa: number | null;
  bySource: Record<string, number | null>;
  mean: number | null;
}

export interface Selection {
  steering: string[];
  steerMinPerClass: number;
  candidates: Candidate[];
  /** Chosen on every steering source: what is fitted and written. */
  chosen: Candidate;
  /**
   * Per steering source: the candidate best on the other steering sources' leave-one-source-out scores (index into
   * `candidates`); the models behind those scores were fitted on this source's runs. Its scores calibrate the
   * written default model (train.ts `fitModels`); the held-out figures use `chosenApart`.
   */
  chosenWithout: Record<string, number>;
  /**
   * Per steering source: the candidate chosen on the runs without it (the other steering sources, each scored by a
   * model fitted without it and without that source): what its held-out figures use, so no fit behind the choice saw
   * its runs (under `chosenWithout`, CodeR + gpt-4's own runs chose its penalty and lifted its AUROC 0.736 -> 0.751).
   */
  chosenApart: Record<string, number>;
  kappas: KappaCandidate[];
  kappa: number | null;
  /** The task-fold scores of the chosen configuration (reused by the evaluation). */
  folds: HeldOut;
  /** Leave-one-source-out scores of each candidate (index) on the steering sources (reused by the evaluation). */
  loso: HeldOut[];
  note: string;
}

const endAuroc = (runs: readonly ForecastRun[], ends: ReadonlyArray<number | null>, source: string): number | null => {
  const pos: number[] = [];
  const neg: number[] = [];
  runs.forEach((r, i) => {
    if (sourceOf(r) !== source || ends[i] === null) return;
    (r.passed ? pos : neg).push(ends[i]!);
  });
  return auroc(pos, neg)?.auroc ?? null;
};

/** The share of (passing, failing) pairs of one source and task that `ends` orders right (ties half). */
export function withinTaskOf(runs: readonly ForecastRun[], ends: ReadonlyArray<number | null>): Candidate['withinTask'] {
  const byTask = new Map<string, { pass: number[]; fail: number[] }>();
  runs.forEach((r, i) => {
    if (ends[i] === null) return;
    const key = `${sourceOf(r)}\u0000${r.task}`;
    const g = byTask.get(key) ?? { pass: [], fail: [] };
    (r.passed ? g.pass : g.fail).push(ends[i]!);
    byTask.set(key, g);
  });
  let right = 0;
  let pairs = 0;
  for (const { pass, fail } of byTask.values())
    for (const p of pass)
      for (const f of fail) {
        right += p > f ? 1 : p === f ? 0.5 : 0;
        pairs += 1;
      }
  return { auroc: pairs > 0 ? right / pairs : null, pairs };
}

const meanOf = (xs: ReadonlyArray<number | null>): number | null => {
  const v = xs.filter((x): x is number => x !== null);
  return v.length === 0 ? null : v.reduce((a, b) => a + b, 0) / v.length;
};

/** Index of the best mean over `sources` (ties: the earlier, i.e. the simpler or more regularised, candidate). */
function best(items: ReadonlyArray<{ bySource: Record<string, number | null> }>, sources: readonly string[]): number {
  let at = 0;
  let top = -Infinity;
  items.forEach((c, i) => {
    const m = meanOf(sources.map((s) => c.bySource[s] ?? null));
    if (m !== null && m > top + 1e-12) {
      top = m;
      at = i;
    }
  });
  return at;
}

/** The sources that steer: at least `min` of each outcome (falling back to MIN_PER_CLASS when fewer than two have that). */
export function steeringSources(runs: readonly ForecastRun[], min = STEER_MIN_PER_CLASS): string[] {
  return steeringOf(runs, min).sources;
}

function steeringOf(runs: readonly ForecastRun[], min: number): { sources: string[]; min: number } {
  const n = new Map<string, [number, number]>();
  for (const r of runs) {
    const c = n.get(sourceOf(r)) ?? [0, 0];
    c[r.passed ? 0 : 1] += 1;
    n.set(sourceOf(r), c);
  }
  const at = (m: number) => [...n].filter(([, [p, f]]) => p >= m && f >= m).map(([s]) => s);
  const strict = at(min);
  return strict.length >= 2 ? { sources: strict.sort(), min } : { sources: at(MIN_PER_CLASS).sort(), min: MIN_PER_CLASS };
}

/**
 * Chooses the configuration (see the file comment); `featureSets` defaults to {@link FEATURE_SETS}, `pairWeights`
 * (the within-task pairwise term's weights tried) to 0 alone: today's pointwise fit.
 */
export function selectConfig(runs: readonly ForecastRun[], k: number, seed: number, featureSets = FEATURE_SETS, pairWeights: readonly number[] = [0]): Selection {
  const { sources: steering, min } = steeringOf(runs, STEER_MIN_PER_CLASS);
  const candidates: Candidate[] = [];
  const loso: HeldOut[] = [];
  for (const [set, features] of Object.entries(featureSets)) {
    for (const lambda of LAMBDAS) {
      // Innermost, so on a tie the pointwise fit (weight 0 first) is the earlier, chosen candidate.
      for (const pairWeight of pairWeights) {
        const config: FitConfig = { ...DEFAULT_FIT, features, lambda, ...(pairWeight > 0 ? { pairWeight } : {}) };
        const h = steering.length >= 2 ? leaveSourceOut(runs, () => config, steering) : { scores: runs.map(() => null) };
        const ends = endScores(h);
        const bySource = Object.fromEntries(steering.map((s) => [s, endAuroc(runs, ends, s)]));
        candidates.push({ set, config, bySource, mean: meanOf(steering.map((s) => bySource[s]!)), withinTask: withinTaskOf(runs, ends) });
        loso.push(h);
      }
    }
  }
  const canChoose = steering.length >= 2;
  const chosenAt = canChoose
    ? best(candidates, steering)
    : Math.max(
        0,
        candidates.findIndex((c) => c.config.features === DEFAULT_FIT.features && c.config.lambda === DEFAULT_FIT.lambda && (c.config.pairWeight ?? 0) === 0),
      );
  const chosen = candidates[chosenAt]!;
  const chosenWithout = Object.fromEntries(
    steering.map((s) => [
      s,
      canChoose
        ? best(
            candidates,
            steering.filter((x) => x !== s),
          )
        : chosenAt,
    ]),
  );
  const chosenApart = Object.fromEntries(
    steering.map((s) => {
      if (!canChoose) return [s, chosenAt];
      const others = steering.filter((x) => x !== s);
      const without = runs.filter((r) => sourceOf(r) !== s);
      const inner = candidates.map((c) => {
        const ends = endScores(leaveSourceOut(without, () => c.config, others));
        return { bySource: Object.fromEntries(others.map((o) => [o, endAuroc(without, ends, o)])) };
      });
      return [s, best(inner, others)];
    }),
  );
  const kappas: KappaCandidate[] = [];
  const foldScores: HeldOut[] = [];
  for (const kappa of canChoose ? KAPPAS : [null]) {
    const h = taskFoldsOut(runs, { ...chosen.config, kappa }, k, seed);
    const ends = endScores(h);
    const bySource = Object.fromEntries(steering.map((s) => [s, endAuroc(runs, ends, s)]));
    kappas.push({ kappa, bySource, mean: meanOf(steering.map((s) => bySource[s]!)) });
    foldScores.push(h);
  }
  const kAt = best(kappas, steering);
  const note = canChoose
    ? `chosen by the mean within-source AUROC of the ${steering.length} sources with at least ${min} passing and failing runs`
    : `fewer than 2 sources with ${MIN_PER_CLASS} passing and failing runs: nothing to choose by; the default configuration is used`;
  return { steering, steerMinPerClass: min, candidates, chosen, chosenWithout, chosenApart, kappas, kappa: kappas[kAt]!.kappa, folds: foldScores[kAt]!, loso, note };
}
