/** Making a `Session` from what it was started with: shared by `start` and by rebuilding a durable session on another replica. */
import type { ForecastModel } from '../core/forecast/model.js';
import type { Policy } from '../core/policy.js';
import type { Analyzers } from '../core/ports.js';
import type { Reference } from '../core/scorer-api.js';
import { expectedStates } from '../core/pta/expected-states.js';
import { createScorer } from '../core/scorer.js';
import { getParser } from '../formats/index.js';
import type { FormatName } from '../formats/types.js';
import type { ResolvedOptions } from './options.js';
import type { Principal } from './principal.js';
import { Session } from './session.js';

export interface SessionSpec {
  id: string;
  task: string;
  format: FormatName;
  learn: boolean;
  agent?: string | undefined;
  model?: string | undefined;
  policy: Policy;
  /** Which policy the server assigned (agent/model group, shadow mode): kept so a rebuilt session counts the same way. */
  assignment?: { pair: string; selected: string; shadow: boolean } | undefined;
  reference: Reference;
  /** The outcome forecast model the session carries for its whole life, and its version. */
  forecast?: { model: ForecastModel; version: number };
  /** Who started it (the local operator while auth is off). */
  principal: Principal;
}

/** A fresh session (no step yet) scored against `spec.reference`, under the server's resolved options. */
export function buildSession(spec: SessionSpec, analyzers: Analyzers, options: ResolvedOptions, now = Date.now()): Session {
  // Optional fields given as undefined, not spread in: both read the fields only, and this runs once a session with
  // its code cold, where each spread went to the runtime (bench/README.md, "life18").
  const scorer = createScorer({
    reference: spec.reference,
    analyzers,
    policy: spec.policy,
    config: options.config,
    forecast: spec.forecast?.model,
    forecastFeatures: spec.forecast !== undefined ? options.forecastFeatures : undefined,
  });
  const session = new Session({
    id: spec.id,
    principal: spec.principal,
    task: spec.task,
    format: spec.format,
    learn: spec.learn,
    scorer,
    reference: scorer.reference,
    weights: options.config.weights,
    parser: spec.format === 'steplens' ? undefined : getParser(spec.format).stream(),
    maxSteps: options.limits.maxStepsPerSession,
    expectedSteps: spec.reference.kind === 'pta' ? expectedStates(spec.reference.pta) : 0,
    now,
    policy: spec.assignment,
    forecastVersion: spec.forecast?.version,
    agent: spec.agent,
    model: spec.model,
  });
  return session;
}
