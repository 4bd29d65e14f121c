/** Batch helpers of the HTTP API: parse a trajectory body, score it, derive its states. */
import type { Analyzers } from '../core/ports.js';
import type { ScoringConfig } from '../core/config.js';
import type { Policy } from '../core/policy.js';
import type { ForecastModel } from '../core/forecast/model.js';
import { createScorer } from '../core/scorer.js';
import type { Reference, TrajectoryReport } from '../core/scorer-api.js';
import type { State, Step } from '../core/types.js';
import { SteplensError } from '../errors.js';
import { parseDocument } from '../formats/index.js';
import type { FormatName, ParseResult, TrajectoryMeta } from '../formats/types.js';

/** Parses a body's `trajectory` in `format` (or detected); refuses one without steps. */
export function trajectorySteps(doc: unknown, format: FormatName | 'auto' | undefined, where = 'body.trajectory'): Step[] {
  return trajectoryDocument(doc, format, where).steps;
}

/** {@link trajectorySteps} with what the log says of itself (agent, model, ...). */
export function trajectoryDocument(doc: unknown, format: FormatName | 'auto' | undefined, where = 'body.trajectory'): { steps: Step[]; meta: TrajectoryMeta } {
  const parsed = parseDocument(doc, format ?? 'auto');
  if (!parsed.ok) throw new SteplensError(parsed.error.code, `${where}: ${parsed.error.message}`);
  return { steps: nonEmptySteps(parsed.value, where), meta: parsed.value.meta };
}

/** The steps of a parse, or a `bad_input` error naming `where` and the first diagnostic when there are none. */
export function nonEmptySteps(parsed: ParseResult, where: string): Step[] {
  if (parsed.steps.length === 0) {
    const why = parsed.diagnostics[0];
    throw new SteplensError('bad_input', `${where}: no steps found${why ? ` (${why.at}: ${why.message})` : ''}`);
  }
  return parsed.steps;
}

/** Scores a whole trajectory the way a session would (same code, same report). */
export function scoreTrajectory(
  steps: readonly Step[],
  opts: { reference: Reference; analyzers: Analyzers; policy: Policy; config: ScoringConfig; passed?: boolean; forecast?: ForecastModel; forecastVersion?: number },
): TrajectoryReport {
  const scorer = createScorer({
    reference: opts.reference,
    analyzers: opts.analyzers,
    policy: opts.policy,
    config: opts.config,
    ...(opts.forecast !== undefined ? { forecast: opts.forecast } : {}),
  });
  steps.forEach((s, i) => scorer.push({ ...s, t: i }));
  const report = scorer.report(opts.passed);
  return opts.forecastVersion !== undefined ? { ...report, forecastVersion: opts.forecastVersion } : report;
}

/** The states of a trajectory (labels do not depend on the reference; the prior is used). */
export function trajectoryStates(steps: readonly Step[], analyzers: Analyzers, reference: Reference): State[] {
  const scorer = createScorer({ reference, analyzers });
  steps.forEach((s, i) => scorer.push({ ...s, t: i }));
  return [...scorer.states()];
}
