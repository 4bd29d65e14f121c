/** The options of `buildApp`, and `resolveOptions`, which fills in their defaults (the limits': server-limits.ts). */
import os from 'node:os';
import type { Logger } from 'pino';
import { DEFAULT_CONFIG, type ScoringConfig } from '../core/config.js';
import { DEFAULT_POLICY, type Policy } from '../core/policy.js';
import type { PolicySet } from '../core/policy-set.js';
import type { ForecastFile } from '../core/forecast/model.js';
import type { PolicyStateStore } from '../store/policy-state.js';
import type { ReferenceStorePort } from '../store/store-port.js';
import { ForecastHolder } from './forecast-holder.js';
import type { ForecastLearnOptions, ForecastLearnScope } from './forecast-learn-options.js';
import { DEFAULT_SHADOW, type ShadowOptions } from './shadow-options.js';
import type { ReferenceScope } from './reference-scope.js';
import { resolveLimits, type ServerLimits } from './server-limits.js';
import { mergeGrants, principalOf, type TokenGrant } from './token-grants.js';

export interface AppOptions {
  /** Writable reference directory (default ./data). Ignored when `store` is given. */
  dataDir?: string;
  /** Read-only reference directories used for tasks the data directory lacks. */
  seedDirs?: string[];
  /** An already opened store (tests, embedding). */
  store?: ReferenceStorePort;
  /**
   * Share references and sessions with other replicas through Redis (docs/scale-out.md);
   * `dataDir` is then unused and `seedDirs` are imported for tasks Redis does not hold.
   */
  redis?: RedisSettings;
  /** Bearer tokens, bare (their own tenant, role agent) or with a tenant and role; empty = auth off (logged as a warning). */
  tokens?: Array<string | TokenGrant>;
  /**
   * Origins (`scheme://host[:port]`) whose web pages may open `/v1/stream` besides the server's own (its Host); `*`:
   * any. A browser's upgrade from any other origin is refused `forbidden_origin`; clients that send no Origin (not
   * browsers) are not concerned. For a page served elsewhere, or a proxy that rewrites Host.
   */
  allowOrigins?: string[];
  /**
   * Host names a server listening on loopback only answers besides localhost, 127.0.0.1, [::1] and its own address
   * (any port); `*`: any. Any other Host is refused `forbidden_host` (DNS rebinding). Not checked when the server
   * listens on another address.
   */
  allowedHosts?: string[];
  limits?: Partial<ServerLimits>;
  /** How long a disconnected session stays resumable, and an ended one queryable, in ms (default 5 min). */
  resumeWindowMs?: number;
  /** A session with no message for this long is ended and freed, in ms (default 30 min). */
  idleTimeoutMs?: number;
  /** Server-wide early-stop policy; a session's `start.policy` overrides it field by field. */
  policy?: Policy;
  /** Policies per agent / model with a fallback (`calibrate --by ... --out`); wins over `policy`. */
  policies?: PolicySet;
  /** Shadow mode: sessions that report outcomes calibrate each agent + model pair's stops (true = defaults). */
  shadow?: boolean | Partial<ShadowOptions>;
  /** Where shadow counters, promotions and pins persist (default `<dataDir>/policies/state.json`). */
  policyState?: PolicyStateStore;
  /** Server-wide scoring config (weights, tiers, tau...; `steplens calibrate --weights` writes one); default the method's. */
  config?: ScoringConfig;
  /**
   * Compress long texts a session keeps (workspace files, scripts) once they go cold: about a
   * third less memory per session for about a tenth more CPU per step (bench/README.md). Applies to
   * the whole process; scores are unchanged. Default off.
   */
  compressTexts?: boolean;
  /** Merge `passed` sessions into their task's PTA unless `start.learn` says otherwise (default false). */
  learnDefault?: boolean;
  /**
   * Whose references score whom (reference-scope.ts): `tenant`, a tenant's references grow its own PTA of the task, used
   * by its sessions before the shared one (an operator's grow the shared one); `shared`, every tenant grows and uses
   * one PTA per task (within the shared-learning bounds). Default `tenant` with two tenants or more, else `shared`.
   */
  referenceScope?: ReferenceScope;
  /**
   * Worker threads that run HTTP scoring (POST /v1/score, /v1/score/batch, /get_reward, references), so a
   * large request never holds the event loop of the streaming sessions; 0 scores on the main thread.
   * Default: one per spare core (cores - 1), at least 1, at most 4.
   */
  scoringWorkers?: number;
  /** Forecast model(s) of P(pass | prefix) (`steplens train` writes them): adds `pPass` to scores, finals and reports. */
  forecast?: ForecastFile;
  /** Retrain the forecast from finished sessions that reported an outcome (needs `forecast`). */
  forecastLearn?: ForecastLearnOptions;
  /** A pino logger to use; otherwise one is made at `logLevel`. */
  logger?: Logger;
  /** Log level of the made logger (default `info`). */
  logLevel?: string;
  /** Where `steplens calibrate --out-dir` wrote the last calibration; the web view shows its trade-off chart. */
  calibrationDir?: string;
}

export interface RedisSettings {
  /** `redis://[user:password@]host:port[/db]` or `rediss://...` */
  url: string;
  /** Prefix of every key (default `steplens:`). */
  prefix?: string;
  /** This replica's name in session leases (default host-pid-random). */
  replicaId?: string;
  /** A session's lease lasts this long unless renewed (default 15 s); resume takes it over at once anyway. */
  leaseMs?: number;
  /** A Redis command with no answer after this long fails with `unavailable` (default 2000 ms). */
  commandTimeoutMs?: number;
}

export interface ResolvedOptions {
  limits: ServerLimits;
  tokens: TokenGrant[];
  /** Tenants the tokens name (1 with auth off): with one, nobody shares a PTA or a pair with anyone else. */
  tenants: number;
  resumeWindowMs: number;
  idleTimeoutMs: number;
  policy: Policy;
  policySet: PolicySet;
  shadow: ShadowOptions | undefined;
  config: ScoringConfig;
  learnDefault: boolean;
  referenceScope: ReferenceScope;
  scoringWorkers: number;
  /** The forecast in force (swapped by the learner), if any. */
  forecast: ForecastHolder | undefined;
  /** What sessions' forecasters compute: every feature when the learner refits on their rows, else what the model reads. */
  forecastFeatures: 'model' | 'all';
  /** Whose outcomes train whose forecast models (forecast-learner.ts): `tenant` by default with two tenants or more. */
  forecastLearnScope: ForecastLearnScope;
}

/** Fills in defaults. */
export function resolveOptions(options: AppOptions): ResolvedOptions {
  const tokens = mergeGrants((options.tokens ?? []).map((t) => (typeof t === 'string' ? { token: t } : t)));
  const tenants = Math.max(1, new Set(tokens.map((t) => principalOf(t).tenant)).size);
  const limits = resolveLimits(options.limits, tenants);
  return {
    limits,
    tokens,
    tenants,
    resumeWindowMs: options.resumeWindowMs ?? 5 * 60_000,
    idleTimeoutMs: options.idleTimeoutMs ?? 30 * 60_000,
    policy: options.policy ?? DEFAULT_POLICY,
    policySet: options.policies ?? { groups: [], fallback: options.policy ?? DEFAULT_POLICY },
    shadow: options.shadow === undefined || options.shadow === false ? undefined : { ...DEFAULT_SHADOW, ...(options.shadow === true ? {} : options.shadow) },
    config: options.config ?? DEFAULT_CONFIG,
    learnDefault: options.learnDefault ?? false,
    // One tenant: nobody else's scores depend on what it learns, so the one shared PTA per task, as always.
    referenceScope: options.referenceScope ?? (tenants > 1 ? 'tenant' : 'shared'),
    scoringWorkers: options.scoringWorkers ?? Math.max(1, Math.min(4, os.availableParallelism() - 1)),
    forecast: options.forecast !== undefined ? new ForecastHolder(options.forecast) : undefined,
    forecastFeatures: options.forecastLearn !== undefined ? 'all' : 'model',
    // One tenant: nobody else's pPass depends on its outcomes, so one set of models, as always.
    forecastLearnScope: options.forecastLearn?.scope ?? (tenants > 1 ? 'tenant' : 'shared'),
  };
}
