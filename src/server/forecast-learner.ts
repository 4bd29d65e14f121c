/**
 * `serve --forecast-learn`: keeps the finished sessions that reported an
 * outcome and, on a schedule, retrains the forecaster per agent + model from
 * them in the background (one attempt at a time, only when sessions were
 * added since the last one). A source's candidate goes in force only if its
 * held-out within-source figures are not worse than the model in force for
 * that source (core/forecast/retrain.ts); every version put in force is
 * written to `<dir>/forecast-v<N>.json` and listed by `GET /v1/forecast`.
 */
import path from 'node:path';
import { mkdir } from 'node:fs/promises';
import type { Logger } from 'pino';
import type { ForecastRun } from '../core/forecast/run.js';
import { retrainForecast } from '../core/forecast/retrain.js';
import { writeFileAtomic } from '../store/atomic-write.js';
import type { ForecastHolder } from './forecast-holder.js';
import type { Session } from './session.js';

export interface ForecastLearnOptions {
  /** Time between attempts in ms. */
  intervalMs: number;
  /** Fewest finished sessions (default 20) and of each outcome (default 5) before a first attempt. */
  minRuns?: number;
  minClass?: number;
  /** Where versions are written (default: not written). */
  dir?: string;
  /** Most sessions kept (the oldest are dropped; default 5000). */
  maxRuns?: number;
}

/** One retraining attempt, as `GET /v1/forecast` lists it. */
export interface LearnAttempt {
  at: string;
  sessions: number;
  result: 'skipped' | 'rejected' | 'accepted';
  reason: string;
  version?: number;
}

export class ForecastLearner {
  private runs: ForecastRun[] = [];
  private added = 0;
  private triedAt = 0;
  private running: Promise<void> | undefined;
  private timer: NodeJS.Timeout | undefined;
  readonly attempts: LearnAttempt[] = [];

  constructor(
    private readonly holder: ForecastHolder,
    private readonly options: ForecastLearnOptions,
    private readonly log: Logger,
  ) {}

  /** Keeps a finished session that reported its outcome (its forecaster's sampled feature vectors, not its states). */
  add(session: Session): void {
    const trace = session.forecastTrace();
    if (session.passed === undefined || trace === undefined || trace.length === 0) return;
    this.runs.push({ id: session.id, task: session.task, agent: session.agent ?? '', model: session.model ?? '', passed: session.passed, ...trace });
    const max = this.options.maxRuns ?? 5000;
    if (this.runs.length > max) this.runs = this.runs.slice(this.runs.length - max);
    this.added += 1;
  }

  get sessions(): number {
    return this.runs.length;
  }

  start(): void {
    this.timer = setInterval(() => void this.tick(), this.options.intervalMs);
    this.timer.unref();
  }

  /** Stops the schedule and waits for a running attempt. */
  async stop(): Promise<void> {
    clearInterval(this.timer);
    await this.running;
  }

  /** One attempt now, unless one is running or no session was added since the last. */
  tick(): Promise<void> {
    if (this.running !== undefined || this.added === this.triedAt) return this.running ?? Promise.resolve();
    this.running = this.attempt().finally(() => {
      this.running = undefined;
    });
    return this.running;
  }

  private async attempt(): Promise<void> {
    this.triedAt = this.added;
    // Yield first, so an attempt never runs inside the timer tick that also serves sockets.
    await new Promise((resolve) => setImmediate(resolve));
    const runs = [...this.runs];
    const at = new Date().toISOString();
    try {
      const r = retrainForecast(runs, this.holder.current, {
        now: at,
        ...(this.options.minRuns !== undefined ? { minRuns: this.options.minRuns } : {}),
        ...(this.options.minClass !== undefined ? { minClass: this.options.minClass } : {}),
      });
      const attempt: LearnAttempt = { at, sessions: runs.length, result: r.kind, reason: r.reason };
      if (r.kind === 'accepted') {
        const next = this.holder.swap(r.candidate, { source: 'learned', sessions: runs.length, validation: r.sources });
        attempt.version = next.version;
        if (this.options.dir !== undefined) {
          await mkdir(this.options.dir, { recursive: true });
          await writeFileAtomic(path.join(this.options.dir, `forecast-v${next.version}.json`), `${JSON.stringify(next, null, 2)}\n`);
        }
      }
      this.attempts.push(attempt);
      if (this.attempts.length > 100) this.attempts.shift();
      this.log.info({ forecast: attempt }, 'forecast retraining');
    } catch (error) {
      this.attempts.push({ at, sessions: runs.length, result: 'skipped', reason: `retraining failed: ${(error as Error).message}` });
      this.log.error({ err: error }, 'forecast retraining failed');
    }
  }
}
