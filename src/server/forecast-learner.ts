/**
 * `serve --forecast-learn`: keeps the finished sessions that reported an
 * outcome and, on a schedule, retrains the forecaster per agent + model from
 * them in the background (one attempt at a time, only for scopes that got
 * sessions since their last one, the smallest fit first: {@link ForecastLearner.attempt}). A source's candidate goes in force only if
 * its held-out within-source figures are not worse than the model in force
 * for that source (core/forecast/retrain.ts); every version put in force is
 * written to `<dir>/forecast-v<N>.json` (a tenant's: `<dir>/tenants/<tenant>/`;
 * the newest `versionsKept` of each directory are kept) and listed by `GET /v1/forecast`; at start the newest learned
 * from the same loaded file are put back in force (forecast-versions.ts).
 *
 * Whose outcomes train whose models (`scope`): `shared`, every session's
 * outcome trains the one set of models every session uses; `tenant` (the
 * default with two tenants or more), a tenant's outcomes train models of its
 * own, used by its own sessions only (forecast-holder.ts), and operators'
 * outcomes train the shared ones. So in the `tenant` scope no tenant's reported
 * outcomes (true, mistaken or made up) change the pPass another tenant gets.
 *
 * The kept sessions and the attempts are saved per scope beside the versions (forecast-runs.ts,
 * forecast-attempts.ts) and, when the versions are restored (the same loaded file, not `fresh`), read back at start:
 * the next attempt sees the sessions it would have seen without the restart, and `GET /v1/forecast` still lists
 * the attempts made before it.
 *
 * Bounded: at most `maxRuns` sessions are kept over all scopes (past it the
 * oldest of the scope holding the most goes, of two holding as many the one with
 * the older oldest: a tenant's flood pushes out another's only down to an even split of the bound among the scopes
 * holding sessions, T93), and a scope holds learned models of at most
 * `maxSources` sources (agent + model): those with the latest outcomes are
 * retrained, the model of the source whose last outcome is the oldest goes
 * past it (its sessions then use the shared or loaded model again). A scope lists its latest `attemptsKept` attempts.
 */
import path from 'node:path';
import { mkdir, readdir, stat } from 'node:fs/promises';
import type { Logger } from 'pino';
import type { ForecastFile, ForecastModel } from '../core/forecast/model.js';
import { writeFileAtomic } from '../store/atomic-write.js';
import type { LearnAttempt } from '../protocol/forecast-attempts.js';
import { AttemptsLog, ATTEMPTS_FILE, readAttemptsFile } from './forecast-attempts.js';
import type { ForecastHolder } from './forecast-holder.js';
import type { ForecastLearnOptions, ForecastLearnScope } from './forecast-learn-options.js';
import { droppedLine, readRunsFile, runLine, runsHeader, RunsLog, RUNS_FILE, TRIED_LINE, type KeptRun, type ScopeHeader } from './forecast-runs.js';
import { pruneVersions } from './forecast-versions.js';
import { retrainOffLoop, rowsOf } from './retrain-off-loop.js';
import { RetrainThread } from './retrain-thread.js';
import { can } from './principal.js';
import type { Session } from './session.js';
import { setImmediate as nextTurn } from 'node:timers/promises';

/** One retraining attempt, as `GET /v1/forecast` lists it (protocol/forecast-attempts.ts). */
export type { LearnAttempt };

/** The key of the shared scope (no tenant name is empty). */
const SHARED = '';

interface Scope {
  runs: KeptRun[];
  added: number;
  triedAt: number;
  attempts: LearnAttempt[];
}

const sourceOf = (r: { agent: string; model: string }) => JSON.stringify([r.agent, r.model]);
const sourceOfModel = (m: ForecastModel) => JSON.stringify([m.match.agent ?? '', m.match.model ?? '']);

export class ForecastLearner {
  private readonly scopes = new Map<string, Scope>();
  /** Each scope's file (with `dir`). */
  private readonly logs = new Map<string, RunsLog>();
  /** Each scope's attempts file (with `dir`). */
  private readonly attemptLogs = new Map<string, AttemptsLog>();
  private kept = 0;
  private ordinal = 0;
  private running: Promise<void> | undefined;
  private timer: NodeJS.Timeout | undefined;
  /** The worker thread attempts are fitted in, kept between them (retrain-thread.ts). */
  readonly thread = new RetrainThread();
  readonly scope: ForecastLearnScope;
  /** Bumped whenever a scope's attempts change (`GET /v1/forecast` keeps its answer until then: forecast-doc.ts). */
  attemptsRevision = 0;

  constructor(
    private readonly holder: ForecastHolder,
    private readonly options: ForecastLearnOptions,
    private readonly log: Logger,
  ) {
    this.scope = options.scope ?? 'shared';
  }

  /** Which scope a session's outcome trains: its tenant's own (`tenant` scope, not an operator) or the shared one. */
  private keyOf(session: Session): string {
    return this.scope === 'tenant' && !can(session.principal, 'operate') ? session.tenant : SHARED;
  }

  /** Keeps a finished session that reported its outcome (its forecaster's sampled feature vectors, not its states). */
  add(session: Session): void {
    const trace = session.forecastTrace();
    if (session.passed === undefined || trace === undefined || trace.length === 0) return;
    const key = this.keyOf(session);
    const scope = this.scopeOf(key);
    const run: KeptRun = { id: session.id, task: session.task, agent: session.agent ?? '', model: session.model ?? '', passed: session.passed, ...trace, n: ++this.ordinal };
    scope.runs.push(run);
    scope.added += 1;
    this.kept += 1;
    this.bound(new Map([[key, [runLine(run)]]]));
  }

  private scopeOf(key: string): Scope {
    let scope = this.scopes.get(key);
    if (scope === undefined) this.scopes.set(key, (scope = { runs: [], added: 0, triedAt: 0, attempts: [] }));
    return scope;
  }

  /** Drops sessions past `maxRuns` (see the file comment), then saves `changed` and the drops, per scope. */
  private bound(changed: Map<string, string[]>): void {
    const max = this.options.maxRuns ?? 5000;
    while (this.kept > max) {
      let most: [string, Scope] | undefined;
      for (const [k, s] of this.scopes) {
        const m = most?.[1];
        if (s.runs.length > 0 && (m === undefined || s.runs.length > m.runs.length || (s.runs.length === m.runs.length && s.runs[0]!.n < m.runs[0]!.n))) most = [k, s];
      }
      const dropped = most![1].runs.shift()!;
      this.kept -= 1;
      changed.set(most![0], [...(changed.get(most![0]) ?? []), droppedLine(dropped.n)]);
    }
    for (const [k, lines] of changed) this.save(k, lines);
  }

  /** Saves `lines`, changes of scope `key`'s sessions, to its file (with `dir`). */
  private save(key: string, lines: string[]): void {
    const dir = this.options.dir;
    if (dir === undefined) return;
    const scope = this.scopes.get(key)!;
    let log = this.logs.get(key);
    if (log === undefined) this.logs.set(key, (log = new RunsLog(path.join(this.dirOf(key, dir), RUNS_FILE), this.headerOf(key), this.log)));
    log.record(lines, scope.runs, scope.added !== scope.triedAt);
  }

  /** Saves scope `key`'s `attempts` to its file (with `dir`). */
  private saveAttempts(key: string, attempts: readonly LearnAttempt[]): void {
    const dir = this.options.dir;
    if (dir === undefined) return;
    let log = this.attemptLogs.get(key);
    if (log === undefined) this.attemptLogs.set(key, (log = new AttemptsLog(path.join(this.dirOf(key, dir), ATTEMPTS_FILE), this.headerOf(key), this.log)));
    log.record(attempts);
  }

  private dirOf(key: string, dir: string): string {
    return key === SHARED ? dir : path.join(dir, 'tenants', key);
  }

  private headerOf(key: string) {
    return runsHeader(this.holder.base, this.scope, key === SHARED ? undefined : key);
  }

  /**
   * At start, when the versions are restored (not `fresh`): reads back the sessions each scope's file holds
   * (forecast-runs.ts; in the `shared` scope tenants' files are not read), so learning goes on with them. Never throws.
   */
  async restore(fresh: boolean): Promise<void> {
    const dir = this.options.dir;
    if (dir === undefined || fresh) return;
    const tenants = await readdir(path.join(dir, 'tenants'), { withFileTypes: true }).catch(() => []);
    const keys = [SHARED, ...tenants.filter((e) => e.isDirectory()).map((e) => e.name)];
    for (const key of keys) {
      const file = path.join(this.dirOf(key, dir), RUNS_FILE);
      if (key !== SHARED && this.scope !== 'tenant') {
        if (
          await stat(file).then(
            () => true,
            () => false,
          )
        )
          this.log.info({ file, tenant: key }, "a tenant's forecast sessions not restored: the learning scope is shared");
        continue;
      }
      const header = this.headerOf(key);
      const attempts = await this.restoreAttempts(key, header);
      if (attempts.length > 0) this.attemptsRevision++;
      const read = await readRunsFile(file, header, this.log);
      if (read !== undefined) this.logs.set(key, new RunsLog(file, header, this.log, read));
      if (read === undefined || read.runs.length === 0) {
        if (attempts.length > 0) this.scopes.set(key, { runs: [], added: 0, triedAt: 0, attempts });
        continue;
      }
      // Pending: kept after the last attempt, so one is due as it would have been.
      this.scopes.set(key, { runs: read.runs, added: read.pending ? 1 : 0, triedAt: 0, attempts });
      this.kept += read.runs.length;
      this.ordinal = Math.max(this.ordinal, read.runs.at(-1)!.n);
      this.log.info({ file, tenant: key === SHARED ? undefined : key, sessions: read.runs.length }, 'forecast sessions restored');
    }
    // A lower `maxRuns` than when they were kept.
    this.bound(new Map());
  }

  /** Reads back scope `key`'s attempts (forecast-attempts.ts; `header`: its runs file's): the newest `attemptsKept`. */
  private async restoreAttempts(key: string, header: ScopeHeader): Promise<LearnAttempt[]> {
    const file = path.join(this.dirOf(key, this.options.dir!), ATTEMPTS_FILE);
    const attempts = await readAttemptsFile(file, header, this.attemptsKept, this.log);
    if (attempts.length > 0) this.log.info({ file, tenant: key === SHARED ? undefined : key, attempts: attempts.length }, 'forecast attempts restored');
    return attempts;
  }

  private get attemptsKept(): number {
    return Math.max(1, this.options.attemptsKept ?? 50);
  }

  /** Sessions kept for `tenant`'s own models (`tenant` scope), else for the shared ones. */
  sessions(tenant?: string): number {
    return this.scopes.get(this.scope === 'tenant' && tenant !== undefined ? tenant : SHARED)?.runs.length ?? 0;
  }

  /** Sessions kept over all scopes. */
  get total(): number {
    return this.kept;
  }

  /** The attempts of the shared models and, with `tenant`, of its own (every scope's with `all`), oldest first. */
  attempts(tenant?: string, all = false): LearnAttempt[] {
    const out: LearnAttempt[] = [];
    for (const [key, s] of this.scopes) if (all || key === SHARED || key === tenant) out.push(...s.attempts);
    return out.sort((a, b) => a.at.localeCompare(b.at));
  }

  start(): void {
    this.timer = setInterval(() => void this.tick(), this.options.intervalMs);
    this.timer.unref();
  }

  /** Stops the schedule and waits for a running attempt. */
  async stop(): Promise<void> {
    clearInterval(this.timer);
    await this.running;
    await this.thread.close();
    await Promise.all([...this.logs.values(), ...this.attemptLogs.values()].map((l) => l.flush()));
  }

  /** One attempt now, unless one is running or no session was added since the last. */
  tick(): Promise<void> {
    if (this.running !== undefined || ![...this.scopes.values()].some((s) => s.added !== s.triedAt)) return this.running ?? Promise.resolve();
    this.running = this.attempt().finally(() => {
      this.running = undefined;
    });
    return this.running;
  }

  /**
   * One pass: each scope with sessions it has not tried, at most once, the shared scope first (a tenant's view is
   * built on the shared models), then the one with the fewest rows to fit, so a tenant's few outcomes are not fitted
   * after another's flood (T108); a scope that gets sessions during the pass is tried in it.
   */
  private async attempt(): Promise<void> {
    const done = new Set<string>();
    for (;;) {
      let next: [string, number] | undefined;
      for (const [key, s] of this.scopes) {
        if (done.has(key) || s.added === s.triedAt) continue;
        const rows = key === SHARED ? -1 : rowsOf(s.runs);
        if (next === undefined || rows < next[1] || (rows === next[1] && key < next[0])) next = [key, rows];
      }
      if (next === undefined) return;
      done.add(next[0]);
      // Yield first, so an attempt never runs inside the timer tick that also serves sockets.
      await nextTurn();
      await this.attemptScope(next[0], this.scopes.get(next[0])!);
    }
  }

  private async attemptScope(key: string, scope: Scope): Promise<void> {
    scope.triedAt = scope.added;
    this.save(key, [TRIED_LINE]);
    const tenant = key === SHARED ? undefined : key;
    const at = new Date().toISOString();
    const cap = Math.max(1, this.options.maxSources ?? 64);
    // The sources with the latest outcomes, at most `cap`: only they are retrained.
    const last = new Map<string, number>();
    for (const r of scope.runs) last.set(sourceOf(r), r.n);
    const recent = new Set(
      [...last.entries()]
        .sort((a, b) => b[1] - a[1])
        .slice(0, cap)
        .map(([s]) => s),
    );
    const runs = scope.runs.filter((r) => recent.has(sourceOf(r)));
    const record = (attempt: LearnAttempt) => {
      scope.attempts.push({ ...attempt, ...(tenant !== undefined ? { tenant } : {}) });
      this.attemptsRevision++;
      if (scope.attempts.length > this.attemptsKept) scope.attempts.splice(0, scope.attempts.length - this.attemptsKept);
      this.saveAttempts(key, scope.attempts);
    };
    try {
      const current = this.holder.fileFor(tenant);
      // Off the event loop (retrain-off-loop.ts): one tenant's 499 long sessions held every socket 1.7 s, 200-511 rows 4-43 ms.
      const options = {
        now: at,
        ...(this.options.minRuns !== undefined ? { minRuns: this.options.minRuns } : {}),
        ...(this.options.minClass !== undefined ? { minClass: this.options.minClass } : {}),
      };
      const r = await retrainOffLoop(runs, current, options, this.options.offLoopFromRows, this.thread);
      const { models, dropped } = this.capped(r.kind === 'accepted' ? r.candidate.models : current.models, tenant, last, cap);
      const attempt: LearnAttempt = { at, sessions: runs.length, result: r.kind, reason: r.reason };
      if (dropped > 0) attempt.reason += `; ${dropped} learned model${dropped === 1 ? '' : 's'} dropped: at most ${cap} sources hold one (those with the oldest outcomes go)`;
      if (r.kind === 'accepted' || dropped > 0) {
        const base = r.kind === 'accepted' ? r.candidate : { ...current, createdAt: at };
        const next = this.holder.swap({ ...base, models }, { source: 'learned', sessions: runs.length, validation: r.sources }, tenant);
        // With what it was learned from, so a restart puts it back only over the same loaded file (forecast-versions.ts).
        const written = this.holder.versionFile(tenant, this.scope);
        attempt.version = next.version;
        if (r.kind !== 'accepted') attempt.result = 'accepted';
        if (this.options.dir !== undefined) {
          await this.write(tenant, next.version, written);
          // A shared version is a new version of every view holding models of its own: written too, so its number goes on after a restart.
          if (tenant === undefined) for (const t of this.holder.tenants) await this.write(t, this.holder.fileFor(t).version, this.holder.versionFile(t, this.scope));
        }
      }
      record(attempt);
      this.log.info({ forecast: attempt, tenant }, 'forecast retraining');
    } catch (error) {
      record({ at, sessions: runs.length, result: 'skipped', reason: `retraining failed: ${(error as Error).message}` });
      this.log.error({ err: error, tenant }, 'forecast retraining failed');
    }
  }

  /** Writes `file`, version `version` of `tenant`'s view (the shared models' without one), to its directory; prunes it. */
  private async write(tenant: string | undefined, version: number, file: ForecastFile): Promise<void> {
    const dir = tenant === undefined ? this.options.dir! : path.join(this.options.dir!, 'tenants', tenant);
    await mkdir(dir, { recursive: true });
    await writeFileAtomic(path.join(dir, `forecast-v${version}.json`), `${JSON.stringify(file, null, 2)}\n`);
    await pruneVersions(dir, this.options.versionsKept ?? 20);
  }

  /**
   * `models` with at most `cap` learned ones (those the scope holds beyond what it inherits: for a tenant the shared
   * models, for the shared scope the loaded file's): past it, those of the sources with the oldest outcomes go (a
   * shared one back to the loaded model of its source, if the file has one).
   */
  private capped(models: ForecastModel[], tenant: string | undefined, last: ReadonlyMap<string, number>, cap: number): { models: ForecastModel[]; dropped: number } {
    const inherited = new Set(tenant !== undefined ? this.holder.current.models : this.holder.loaded.models);
    const learned = models.filter((m) => !inherited.has(m));
    if (learned.length <= cap) return { models, dropped: 0 };
    const rank = (m: ForecastModel) => last.get(sourceOfModel(m)) ?? -1;
    const drop = new Set([...learned].sort((a, b) => rank(b) - rank(a)).slice(cap));
    const loaded = (m: ForecastModel) => (tenant !== undefined ? undefined : this.holder.loaded.models.find((l) => sourceOfModel(l) === sourceOfModel(m)));
    const out = models.flatMap((m) => (drop.has(m) ? (loaded(m) ?? []) : [m]));
    return { models: out, dropped: drop.size };
  }
}
