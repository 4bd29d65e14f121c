/**
 * The forecast model in force (`serve --forecast`): which model a new
 * session gets (by its tenant, agent and model), and the swaps
 * `--forecast-learn` makes. A session takes its model when it starts and
 * keeps it, so a swap never changes a score already sent, nor any later
 * score of a running session.
 *
 * Learned models live in scopes (forecast-learner.ts): the shared one (what
 * every tenant's sessions use) and, in the `tenant` learning scope, one per
 * tenant holding only the models learned from that tenant's own outcomes. A
 * tenant's sessions use its own model of their source if it has one, else
 * the shared one: no tenant's outcomes change another tenant's pPass.
 *
 * At start the newest version files the learner wrote from the same loaded file are put back in force
 * (forecast-versions.ts, `restoreVersions`), so what was learned survives a restart.
 *
 * Each view numbers its own versions (T91): the shared models theirs, a tenant holding models of its own its view's
 * (its first after the shared version it used, then one more per change of its own models or of the shared ones). One
 * sequence for every scope let a tenant count another's retrainings from the gaps in its own numbers.
 */
import { isDeepStrictEqual } from 'node:util';
import { forecastDigest, trainedRunList } from '../core/forecast/fingerprint.js';
import { selectModel, type ForecastFile, type ForecastModel } from '../core/forecast/model.js';
import type { JobForecast } from './score-request.js';

/** One entry of the history: a version put in force. */
export interface ForecastVersion {
  version: number;
  createdAt: string;
  /**
   * Where the version came from: the loaded file, a retraining on this many finished sessions, a version file put
   * back at start, or (a tenant's view) the shared models' version `shared` put in force under its own models.
   */
  source: 'file' | 'learned' | 'restored' | 'shared';
  /** The shared models' version that made this version of a tenant's view (`source: 'shared'`). */
  shared?: number;
  /** The version file it was restored from (`restored`), its name in its directory. */
  file?: string;
  sessions?: number;
  /** Held-out numbers of the check that let it in (learned versions). */
  validation?: unknown;
  /** Whose models it changed, in the `tenant` learning scope: that tenant's (absent: the shared models). */
  tenant?: string;
}

/** A tenant's own learned models (forecast-learner.ts, `tenant` scope). */
interface Own {
  models: ForecastModel[];
  /** The version of the tenant's view (its own models over the shared ones), in its own numbering. */
  version: number;
  /** The shared version in force when its first version was: the shared ones up to it are its view's history. */
  from: number;
  createdAt: string;
  evaluation?: ForecastFile['evaluation'];
}

/**
 * Versions kept in the history per scope (the shared models', each tenant's own: the newest; the loaded file's first
 * entry is always kept). One bound for all let a tenant's versions push out another's and the shared ones (T51).
 */
export const MAX_HISTORY = 100;

export class ForecastHolder {
  /** The shared models (the file as loaded, then as the learner changed it from the shared scope). */
  private file: ForecastFile;
  /** The models as loaded: what a learned model dropped by the learner's cap falls back to. */
  readonly loaded: ForecastFile;
  private readonly own = new Map<string, Own>();
  /** The last version number given out to the shared models. */
  private latest: number;
  /** The last version number given out to each tenant's view (its own numbering: another's never shows in it). */
  private readonly latestOf = new Map<string, number>();
  readonly history: ForecastVersion[] = [];
  /** The file's training runs as a sorted list, made once (learned versions keep the loaded file's list). */
  private trained: readonly string[] | undefined | null = null;
  /** Each tenant's view, made once per change of its own or the shared models. */
  private readonly views = new Map<string, ForecastFile>();
  private baseOf: ForecastFile['learnedFrom'] | undefined;

  constructor(file: ForecastFile) {
    this.file = file;
    this.loaded = file;
    this.latest = file.version;
    this.history.push({ version: file.version, createdAt: file.createdAt, source: 'file' });
  }

  /** The version of the shared models. */
  get version(): number {
    return this.file.version;
  }

  /** What the versions learned from the loaded file record of it (`learnedFrom` without a tenant's fields). */
  get base(): NonNullable<ForecastFile['learnedFrom']> {
    this.baseOf ??= { digest: forecastDigest(this.loaded), version: this.loaded.version, createdAt: this.loaded.createdAt };
    return this.baseOf;
  }

  /** The shared models. */
  get current(): ForecastFile {
    return this.file;
  }

  /** Tenants holding models of their own. */
  get tenants(): string[] {
    return [...this.own.keys()];
  }

  /** The models a tenant's sessions use: its own (learned from its outcomes) before the shared ones, under its view's version. */
  fileFor(tenant: string | undefined): ForecastFile {
    const own = tenant !== undefined ? this.own.get(tenant) : undefined;
    if (own === undefined) return this.file;
    const cached = this.views.get(tenant!);
    const version = own.version;
    if (cached?.version === version) return cached;
    const same = (a: ForecastModel, b: ForecastModel) => a.match.agent === b.match.agent && a.match.model === b.match.model;
    const view: ForecastFile = {
      ...this.file,
      version,
      createdAt: own.createdAt,
      // Its own first: selectModel keeps the first of equally specific matches.
      models: [...own.models, ...this.file.models.filter((m) => !own.models.some((o) => same(o, m)))],
      ...(own.evaluation !== undefined ? { evaluation: own.evaluation } : {}),
    };
    this.views.set(tenant!, view);
    return view;
  }

  /** The model for a session of `tenant` / `agent` / `model` (undefined when no model applies). */
  modelFor(agent: string | undefined, model: string | undefined, tenant?: string): { model: ForecastModel; version: number } | undefined {
    const file = this.fileFor(tenant);
    const m = selectModel(file, agent, model);
    return m === undefined ? undefined : { model: m, version: file.version };
  }

  /**
   * The models in force for `tenant` and their version, as a scoring job carries them (without the file's evaluation), and its training runs'
   * fingerprints; with `withEnd`, the file's end-of-run model too (learning refits prefix models only: the loaded file's end model stays).
   */
  jobForecast(tenant?: string, withEnd = false): JobForecast {
    if (this.trained === null) this.trained = trainedRunList(this.loaded.trainedRuns);
    const runs = this.trained;
    const file = this.fileFor(tenant);
    const end = withEnd ? file.end : undefined;
    return { models: file.models, version: file.version, ...(runs !== undefined ? { trainedRuns: runs } : {}), ...(end !== undefined ? { end } : {}) };
  }

  /**
   * Puts `file` in force as the next version: the shared models, or with `tenant` that tenant's own (the models of
   * `file` that are not the shared ones: `file` is what the learner made of `fileFor(tenant)`). Returns the view.
   */
  swap(file: ForecastFile, entry: Omit<ForecastVersion, 'version' | 'createdAt' | 'tenant'>, tenant?: string): ForecastFile {
    if (tenant === undefined) {
      const version = ++this.latest;
      this.file = { ...file, version };
      this.record({ version, createdAt: file.createdAt, ...entry });
      // Every tenant's view holding models of its own changed too: the next number of its own.
      for (const [t, own] of this.own) {
        own.version = this.nextOf(t);
        own.createdAt = file.createdAt;
        this.record({ version: own.version, createdAt: file.createdAt, source: 'shared', shared: version, tenant: t });
      }
      return this.file;
    }
    const shared = new Set(this.file.models);
    const version = this.nextOf(tenant);
    const from = this.own.get(tenant)?.from ?? this.file.version;
    this.own.set(tenant, { models: file.models.filter((m) => !shared.has(m)), version, from, createdAt: file.createdAt, ...(file.evaluation !== undefined ? { evaluation: file.evaluation } : {}) });
    this.record({ version, createdAt: file.createdAt, ...entry, tenant });
    return this.fileFor(tenant);
  }

  /** The next version of `tenant`'s view: past every one it had, and past the shared one it used until now. */
  private nextOf(tenant: string): number {
    const version = Math.max(this.latestOf.get(tenant) ?? 0, this.own.get(tenant)?.version ?? this.file.version) + 1;
    this.latestOf.set(tenant, version);
    return version;
  }

  /** The versions of `tenant`'s view (the shared models' without one), oldest first: its numbering only. */
  historyOf(tenant: string | undefined): ForecastVersion[] {
    const own = tenant !== undefined ? this.own.get(tenant) : undefined;
    return this.history.filter((h) => (h.tenant === undefined ? own === undefined || h.version <= own.from : h.tenant === tenant));
  }

  /** Appends `entry`, then drops the oldest of its scope past {@link MAX_HISTORY} (other scopes' entries stay). */
  private record(entry: ForecastVersion): void {
    this.history.push(entry);
    const scope = (h: ForecastVersion, i: number) => i > 0 && h.tenant === entry.tenant;
    // The shared scope's bound counts the loaded file's entry, which stays.
    const max = entry.tenant === undefined ? MAX_HISTORY - 1 : MAX_HISTORY;
    let over = this.history.filter(scope).length - max;
    for (let i = 1; over > 0 && i < this.history.length;) {
      if (scope(this.history[i]!, i)) {
        this.history.splice(i, 1);
        over--;
      } else i++;
    }
  }

  /** The version file of what `tenant`'s sessions now use (the shared models' without one): its view, with `learnedFrom` (learned in `scope`). */
  versionFile(tenant: string | undefined, scope: 'tenant' | 'shared'): ForecastFile {
    const own = tenant !== undefined ? this.own.get(tenant) : undefined;
    const learnedFrom = { ...this.base, ...(tenant !== undefined ? { tenant, ownModels: own?.models.length ?? 0 } : {}), scope };
    return { ...this.fileFor(tenant), learnedFrom };
  }

  /** Numbers the versions of `tenant`'s view (the shared models' without one) from after `version` on (the highest in its directory), so a restarted server overwrites no file. */
  continueAfter(version: number, tenant?: string): void {
    if (tenant === undefined) this.latest = Math.max(this.latest, version);
    else this.latestOf.set(tenant, Math.max(this.latestOf.get(tenant) ?? 0, version));
  }

  /**
   * Puts back in force a version file learned from the loaded file (`file` checked by forecast-versions.ts) under its
   * own number: the shared models, or with `tenant` that tenant's own (the first `learnedFrom.ownModels` of it).
   */
  restore(file: ForecastFile, name: string, tenant?: string): void {
    const { learnedFrom, ...rest } = file;
    // A model equal to a loaded one is that one: the learner's cap tells learned models from loaded ones by identity.
    const models = rest.models.map((m) => this.loaded.models.find((l) => isDeepStrictEqual(l, m)) ?? m);
    this.continueAfter(file.version, tenant);
    if (tenant === undefined) this.file = { ...rest, models };
    else {
      this.own.set(tenant, {
        models: models.slice(0, learnedFrom?.ownModels ?? 0),
        version: file.version,
        from: this.file.version,
        createdAt: file.createdAt,
        ...(file.evaluation !== undefined ? { evaluation: file.evaluation } : {}),
      });
      this.views.delete(tenant);
      // Over other shared models than it was written on (the shared version then not restored): a view it never had, so a new number.
      if (!isDeepStrictEqual(this.fileFor(tenant).models, models)) this.own.get(tenant)!.version = this.nextOf(tenant);
    }
    this.record({ version: this.fileFor(tenant).version, createdAt: file.createdAt, source: 'restored', file: name, ...(tenant !== undefined ? { tenant } : {}) });
  }
}
