/**
 * The settings of `serve --forecast-learn` (forecast-learner.ts): its schedule, the sessions and sources it keeps,
 * where and how many versions and attempts it saves, and its scope (whose outcomes train whose models).
 */

export const FORECAST_LEARN_SCOPES = ['tenant', 'shared'] as const;
export type ForecastLearnScope = (typeof FORECAST_LEARN_SCOPES)[number];

export interface ForecastLearnOptions {
  /** Time between attempts in ms. */
  intervalMs: number;
  /** Fewest finished sessions (default 20) and of each outcome (default 5) before a first attempt. */
  minRuns?: number;
  minClass?: number;
  /** Where versions are written (default: not written). */
  dir?: string;
  /** Most sessions kept over all scopes (past it the oldest of the scope holding the most are dropped; default 5000). */
  maxRuns?: number;
  /** Most sources (agent + model) one scope holds learned models of (default 64). */
  maxSources?: number;
  /** Rows of kept sessions (their sampled prefixes) from which an attempt is fitted in a worker thread (default 1: every fit, retrain-off-loop.ts). */
  offLoopFromRows?: number;
  /** Attempts a scope lists (and saves), the latest (default 50). */
  attemptsKept?: number;
  /** Version files kept per directory, the newest (default 20; 0 keeps every one): a file per accepted retraining or recalibration would otherwise grow the disk for good. */
  versionsKept?: number;
  /** Start from the loaded file, not from the newest version in `dir` learned from it (`--forecast-learn-fresh`; forecast-versions.ts). */
  fresh?: boolean;
  /** Whose outcomes train whose models (default `tenant` with two tenants or more, else `shared`; see forecast-learner.ts). */
  scope?: ForecastLearnScope;
}
