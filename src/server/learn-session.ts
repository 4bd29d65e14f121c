/**
 * A passing `learn` session merged into its task's PTA, under the shared-learning rules (learning-guard.ts): the new
 * version for its final, or why nothing was learned. Never throws: a refusal or a fault is said in the final.
 */
import type { State } from '../core/types.js';
import { SteplensError } from '../errors.js';
import type { FinalMessage } from '../protocol/server-messages.js';
import type { Logger } from 'pino';
import type { Contribution } from '../store/store-port.js';
import type { LearningGuard } from './learning-guard.js';
import type { AppMetrics } from './metrics.js';
import type { ScopedReferences } from './reference-scope.js';
import type { Session } from './session.js';

/** What learning needs of the registry's deps. */
export interface LearnDeps {
  /** Which PTA the session's tenant grows (reference-scope.ts). */
  references: ScopedReferences;
  metrics: AppMetrics;
  log: Logger;
  /** Without one, learning is unbounded (one tenant). */
  learning?: LearningGuard;
}

export async function learnSession(deps: LearnDeps, session: Session, states: readonly State[]): Promise<NonNullable<FinalMessage['learned']>> {
  if (states.length === 0) return { error: { code: 'bad_input', message: 'no scored step to learn' } };
  try {
    const add = (c?: Contribution) => deps.references.add(session.principal, session.task, states, c);
    const { pta, scope } = await (deps.learning !== undefined ? deps.learning.contribute(session.principal, 'learn', add) : add());
    deps.log.info({ session: session.id, tenant: session.tenant, task: session.task, scope, version: pta.version }, 'reference learned');
    return { version: pta.version, ...(deps.references.scope === 'tenant' ? { scope } : {}) };
  } catch (error) {
    const known = error instanceof SteplensError;
    // The learning rules (forbidden, quota_exceeded) refused it: counted, and said in the final.
    if (known && (error.code === 'forbidden' || error.code === 'quota_exceeded')) deps.metrics.refusals.inc({ code: error.code });
    if (known) deps.log.warn({ session: session.id, task: session.task, code: error.code, why: error.message }, 'reference not learned');
    else deps.log.error({ session: session.id, task: session.task, err: error }, 'learning the reference failed');
    return { error: known ? { code: error.code, message: error.message } : { code: 'internal', message: 'the reference could not be stored (a server fault, logged)' } };
  }
}
