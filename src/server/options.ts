/** The options of `buildApp`, with their defaults. */
import os from 'node:os';
import type { Logger } from 'pino';
import { DEFAULT_CONFIG, type ScoringConfig } from '../core/config.js';
import { DEFAULT_POLICY, type Policy } from '../core/policy.js';
import type { ReferenceStore } from '../store/reference-store.js';

export interface ServerLimits {
  /** Open sessions one connection may hold (default 64). */
  sessionsPerConnection: number;
  /** Open sessions in the whole server (default 4096). */
  totalSessions: number;
  /** Largest accepted client frame in bytes; larger frames get `too_large` (default 1 MiB). */
  maxFrameBytes: number;
  /** Steps one session may score (default 5000). */
  maxStepsPerSession: number;
  /** Bytes a connection may have queued for sending before it is closed as too slow (default 4 MiB). */
  outgoingQueueBytes: number;
  /** Largest HTTP body in bytes (default 64 MiB). */
  maxBodyBytes: number;
  /** Ended sessions kept for `resume` and GET /v1/sessions/:id within the resume window; the oldest go first past it (default 10,000). */
  maxEndedSessions: number;
  /** Bytes the kept ended sessions may hold (their frame logs and finals, estimated; default 64 MiB); the oldest go first past it. */
  maxEndedSessionBytes: number;
}

export interface AppOptions {
  /** Writable reference directory (default ./data). Ignored when `store` is given. */
  dataDir?: string;
  /** Read-only reference directories used for tasks the data directory lacks. */
  seedDirs?: string[];
  /** An already opened store (tests, embedding). */
  store?: ReferenceStore;
  /** Bearer tokens; empty = auth off (logged as a warning). */
  tokens?: string[];
  limits?: Partial<ServerLimits>;
  /** How long a disconnected session stays resumable, and an ended one queryable, in ms (default 5 min). */
  resumeWindowMs?: number;
  /** A session with no message for this long is ended and freed, in ms (default 30 min). */
  idleTimeoutMs?: number;
  /** Server-wide early-stop policy; a session's `start.policy` overrides it field by field. */
  policy?: Policy;
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
   * Worker threads that run HTTP scoring (POST /v1/score, /v1/score/batch, /get_reward, references), so a
   * large request never holds the event loop of the streaming sessions; 0 scores on the main thread.
   * Default: one per spare core (cores - 1), at least 1, at most 4.
   */
  scoringWorkers?: number;
  /** A pino logger to use; otherwise one is made at `logLevel`. */
  logger?: Logger;
  /** Log level of the made logger (default `info`). */
  logLevel?: string;
}

export interface ResolvedOptions {
  limits: ServerLimits;
  tokens: string[];
  resumeWindowMs: number;
  idleTimeoutMs: number;
  policy: Policy;
  config: ScoringConfig;
  learnDefault: boolean;
  scoringWorkers: number;
}

export const DEFAULT_LIMITS: ServerLimits = {
  sessionsPerConnection: 64,
  totalSessions: 4096,
  maxFrameBytes: 1024 * 1024,
  maxStepsPerSession: 5000,
  outgoingQueueBytes: 4 * 1024 * 1024,
  maxBodyBytes: 64 * 1024 * 1024,
  maxEndedSessions: 10_000,
  maxEndedSessionBytes: 64 * 1024 * 1024,
};

/** Fills in defaults. */
export function resolveOptions(options: AppOptions): ResolvedOptions {
  return {
    limits: { ...DEFAULT_LIMITS, ...options.limits },
    tokens: [...new Set((options.tokens ?? []).filter((t) => t.length > 0))],
    resumeWindowMs: options.resumeWindowMs ?? 5 * 60_000,
    idleTimeoutMs: options.idleTimeoutMs ?? 30 * 60_000,
    policy: options.policy ?? DEFAULT_POLICY,
    config: options.config ?? DEFAULT_CONFIG,
    learnDefault: options.learnDefault ?? false,
    scoringWorkers: options.scoringWorkers ?? Math.max(1, Math.min(4, os.availableParallelism() - 1)),
  };
}
