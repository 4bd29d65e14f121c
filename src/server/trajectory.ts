/** Batch helpers of the HTTP API: parse a trajectory body, score it, derive its states. */
import type { Analyzers } from '../core/ports.js';
import type { ScoringConfig } from '../core/config.js';
import type { Policy } from '../core/policy.js';
import type { ForecastModel } from '../core/forecast/model.js';
import { createScorer } from '../core/scorer.js';
import { numberedSteps } from '../core/step-numbers.js';
import type { Reference, TrajectoryReport } from '../core/scorer-api.js';
import type { State, Step } from '../core/types.js';
import { SteplensError } from '../errors.js';
import { parseInstances } from '../formats/index.js';
import type { Diagnostic, FormatName, ParseResult, TrajectoryMeta } from '../formats/types.js';

/** Parses a body's `trajectory` in `format` (or detected); refuses one without steps. `task`: as in {@link trajectoryDocument}. */
export function trajectorySteps(doc: unknown, format: FormatName | 'auto' | undefined, where = 'body.trajectory', task?: string): Step[] {
  return trajectoryDocument(doc, format, where, task).steps;
}

/** Instances named in a refusal at most (an `output.jsonl` may hold hundreds). */
const MAX_IDS_NAMED = 10;

/**
 * {@link trajectorySteps} with what the log says of itself (agent, model, ...). A log of several instances (an
 * OpenHands `output.jsonl` sent as its array of lines) gives the instance whose task is `task`; without one that
 * matches it is refused naming the instances (it was scored as its first line whatever `task` said, and a reference
 * of one task could be learned from another's run).
 */
export function trajectoryDocument(
  doc: unknown,
  format: FormatName | 'auto' | undefined,
  where = 'body.trajectory',
  task?: string,
): { steps: Step[]; meta: TrajectoryMeta; format: FormatName; diagnostics: Diagnostic[] } {
  const one = oneInstance(doc, format, where, task);
  return { steps: nonEmptySteps(one, where), meta: one.meta, format: one.format, diagnostics: one.diagnostics };
}

/** As {@link trajectoryDocument}, but a log with no step is no error (ranking lists such a run as unranked). */
export function trajectoryDocumentMaybeEmpty(doc: unknown, format: FormatName | 'auto' | undefined, where: string, task?: string): { steps: Step[]; meta: TrajectoryMeta } {
  const one = oneInstance(doc, format, where, task);
  return { steps: one.steps, meta: one.meta };
}

/** The parse of the one trajectory a body means; a `SteplensError` naming `where` when there is none. */
function oneInstance(doc: unknown, format: FormatName | 'auto' | undefined, where: string, task?: string): ParseResult {
  const parsed = parseInstances(doc, format ?? 'auto');
  if (!parsed.ok) throw new SteplensError(parsed.error.code, `${where}: ${parsed.error.message}`);
  const instances = parsed.value;
  const one = instances.length === 1 ? instances[0]! : instances.find((p) => task !== undefined && p.meta.task === task);
  if (one === undefined) {
    const ids = instances.map((p, i) => p.meta.task ?? `#${i + 1}`);
    const named = ids.slice(0, MAX_IDS_NAMED).join(', ') + (ids.length > MAX_IDS_NAMED ? `, ... (${ids.length} in all)` : '');
    const why = task === undefined ? 'name the task to score' : `none is task ${task}`;
    throw new SteplensError('bad_input', `${where}: a log of ${instances.length} instances (${named}); ${why}, or send that instance alone`);
  }
  return one;
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
  for (const s of numberedSteps(steps)) scorer.push(s);
  const report = scorer.report(opts.passed);
  return opts.forecastVersion !== undefined ? { ...report, forecastVersion: opts.forecastVersion } : report;
}

/** The states of a trajectory (labels do not depend on the reference; the prior is used). */
export function trajectoryStates(steps: readonly Step[], analyzers: Analyzers, reference: Reference): State[] {
  const scorer = createScorer({ reference, analyzers });
  for (const s of numberedSteps(steps)) scorer.push(s);
  return [...scorer.states()];
}
