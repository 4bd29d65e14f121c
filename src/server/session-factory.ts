/** Making a `Session` from what it was started with: shared by `start` and by rebuilding a durable session on another replica. */
import type { ScoringConfig } from '../core/config.js';
import type { Policy } from '../core/policy.js';
import type { Analyzers } from '../core/ports.js';
import type { Reference } from '../core/scorer-api.js';
import { createScorer } from '../core/scorer.js';
import { getParser } from '../formats/index.js';
import type { FormatName } from '../formats/types.js';
import { Session } from './session.js';

export interface SessionSpec {
  id: string;
  task: string;
  format: FormatName;
  learn: boolean;
  agent?: string | undefined;
  model?: string | undefined;
  policy: Policy;
  reference: Reference;
}

/** A fresh session (no step yet) scored against `spec.reference`. */
export function buildSession(spec: SessionSpec, env: { analyzers: Analyzers; config: ScoringConfig; maxSteps: number; now: number }): Session {
  const scorer = createScorer({ reference: spec.reference, analyzers: env.analyzers, policy: spec.policy, config: env.config });
  return new Session({
    id: spec.id, task: spec.task, format: spec.format, learn: spec.learn, scorer,
    reference: scorer.report().reference,
    parser: spec.format === 'steplens' ? undefined : getParser(spec.format).stream(),
    maxSteps: env.maxSteps, now: env.now,
    ...(spec.agent !== undefined ? { agent: spec.agent } : {}),
    ...(spec.model !== undefined ? { model: spec.model } : {}),
  });
}
