/**
 * What the session registry is built from, and the port through which it makes sessions durable
 * (durable-sessions.ts implements it; the port keeps the two modules out of a circle).
 */
import type { Logger } from 'pino';
import type { Analyzers } from '../core/ports.js';
import type { MessageError } from '../protocol/parse.js';
import type { FinalMessage } from '../protocol/server-messages.js';
import type { ReferenceStorePort } from '../store/store-port.js';
import type { Result } from '../errors.js';
import type { Connection } from './connection.js';
import type { LearningGuard } from './learning-guard.js';
import type { AppMetrics } from './metrics.js';
import type { ResolvedOptions } from './options.js';
import type { PolicyManager } from './policy-manager.js';
import type { ScopedReferences } from './reference-scope.js';
import type { Session } from './session.js';
import type { SessionObserver } from './session-events.js';
import type { SessionSpec } from './session-factory.js';

export interface RegistryDeps {
  store: ReferenceStorePort;
  /** What each tenant's sessions are scored against, and which PTA its learning grows (default: `store` in the configured reference scope). */
  references?: ScopedReferences;
  analyzers: Analyzers;
  metrics: AppMetrics;
  log: Logger;
  options: ResolvedOptions;
  connections: Map<number, Connection>;
  /** Picks each session's policy (default: the configured policy set, no shadow mode). */
  policies?: PolicyManager;
  /** Told of every session event (the web view's live feed). */
  observer?: SessionObserver;
  /** Told of every session its client ended (the forecast learner keeps those with an outcome). */
  onEnded?: (session: Session) => void;
  /** With Redis: sessions made durable and carried on by any replica (set by `buildApp` after construction). */
  durable?: SessionDurability;
  /** Who may grow which PTA, how much (shared learning under control); without one, learning is unbounded. */
  learning?: LearningGuard;
}

/** What the registry asks of durable sessions. */
export interface SessionDurability {
  /** Records a new session and takes its lease; an error when the id is held or the shared store is unreachable. */
  open(session: Session, spec: SessionSpec): Promise<Result<void, MessageError>>;
  /** Waits for the session's durable writes in flight. */
  settled(session: Session): Promise<void>;
  /** Records the session's final. */
  finished(session: Session, final: FinalMessage): Promise<void>;
}
