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
import { detectFormat, getParser, loadLogText, parseInstances, parseLoadedLog, parseLogText, remapToLines } from '../formats/index.js';
import { nestedDeeperThan } from '../formats/json-helpers.js';
import { eachInSlices, pushInSlices } from '../job-slices.js';
import { noStepsError, type NoStepsPurpose } from '../protocol/no-steps.js';
import type { Diagnostic, FormatName, ParseResult, TrajectoryMeta } from '../formats/types.js';

/** Parses a body's `trajectory` in `format` (or detected); refuses one without steps (a reference needs one). `task`: as in {@link trajectoryDocument}. */
export function trajectorySteps(doc: unknown, format: FormatName | 'auto' | undefined, where = 'body.trajectory', task?: string): Step[] {
  return nonEmptySteps(oneInstance(doc, format, where, task), where);
}

/** Instances named in a refusal at most (an `output.jsonl` may hold hundreds). */
const MAX_IDS_NAMED = 10;

/**
 * The steps of a body's `trajectory` to score, with what the log says of itself (agent, model, ...). A log of several
 * instances (an OpenHands `output.jsonl` sent as its array of lines) gives the instance whose task is `task`; without
 * one that matches it is refused naming the instances (it was scored as its first line whatever `task` said, and a
 * reference of one task could be learned from another's run). A run with no step is refused `bad_input`
 * (protocol/no-steps.ts), as `steplens score` refuses it.
 */
export function trajectoryDocument(
  doc: unknown,
  format: FormatName | 'auto' | undefined,
  where = 'body.trajectory',
  task?: string,
): { steps: Step[]; meta: TrajectoryMeta; format: FormatName; diagnostics: Diagnostic[] } {
  const one = oneInstance(doc, format, where, task);
  return { steps: stepsToScore(one, where), meta: one.meta, format: one.format, diagnostics: one.diagnostics };
}

/** As {@link trajectoryDocument}, but a log with no step is no error (ranking lists such a run as unranked). */
export function trajectoryDocumentMaybeEmpty(doc: unknown, format: FormatName | 'auto' | undefined, where: string, task?: string): { steps: Step[]; meta: TrajectoryMeta } {
  const one = oneInstance(doc, format, where, task);
  return { steps: one.steps, meta: one.meta };
}

/**
 * The runs of a body's `trajectory`, and the problems of its text. A JSON string is the log file's text (a client that
 * sent the file as read, `json.dumps(open(path).read())`): read as the CLI reads a file, one JSON document or JSON
 * Lines. No format's log is a JSON string itself, so this is never ambiguous; its size is the body's (`maxBodyBytes`).
 */
function instancesOf(doc: unknown, format: FormatName | 'auto', where: string): { instances: ParseResult[]; text: Diagnostic[] } {
  if (typeof doc === 'string') {
    const log = parseLogText(doc, format, where);
    if (!log.ok) throw log.error;
    return { instances: log.value.instances, text: log.value.diagnostics };
  }
  const parsed = parseInstances(doc, format);
  if (!parsed.ok) throw new SteplensError(parsed.error.code, `${where}: ${parsed.error.message}`);
  return { instances: parsed.value, text: [] };
}

/** The parse of the one trajectory a body means; a `SteplensError` naming `where` when there is none. */
function oneInstance(doc: unknown, format: FormatName | 'auto' | undefined, where: string, task?: string): ParseResult {
  return chosenInstance(instancesOf(doc, format ?? 'auto', where), where, task);
}

/** Of a log's instances, the one `task` names (or its only one), with the problems of its text first. */
function chosenInstance({ instances, text }: { instances: ParseResult[]; text: Diagnostic[] }, where: string, task?: string): ParseResult {
  const chosen = instances.length === 1 ? instances[0]! : instances.find((p) => task !== undefined && p.meta.task === task);
  // Lines of the text that are not JSON were left out of whichever run is scored: said with its own diagnostics.
  const one = chosen !== undefined && text.length > 0 ? { ...chosen, diagnostics: [...text, ...chosen.diagnostics] } : chosen;
  if (one === undefined) {
    const ids = instances.map((p, i) => p.meta.task ?? `#${i + 1}`);
    const named = ids.slice(0, MAX_IDS_NAMED).join(', ') + (ids.length > MAX_IDS_NAMED ? `, ... (${ids.length} in all)` : '');
    const why = task === undefined ? 'name the task to score' : `none is task ${task}`;
    throw new SteplensError('bad_input', `${where}: a log of ${instances.length} instances (${named}); ${why}, or send that instance alone`);
  }
  return one;
}

/**
 * The steps of a parse for a reward (`/get_reward`): a run with no step that was read whole (one that ended before its
 * first action) gets the score of a session ended with no step (a trainer's batch needs a reward for every rollout);
 * one whose records could not be read, none of them a step, is bad input, named by its first problem.
 */
export function scorableSteps(parsed: ParseResult, where: string): Step[] {
  return parsed.steps.length === 0 && parsed.diagnostics.length === 0 ? [] : nonEmptySteps(parsed, where);
}

/**
 * The steps of a parse to score and report on (`POST /v1/score`, a batch item, `/v1/score/steps`): a run with none is
 * refused as `steplens score` refuses it (a report carries a tier; nothing was done to earn one), before scoring.
 */
function stepsToScore(parsed: ParseResult, where: string): Step[] {
  return nonEmptySteps(parsed, where, 'score');
}

/** The steps of a parse, or a `bad_input` error naming `where`, the purpose and the first diagnostic when there are none. */
export function nonEmptySteps(parsed: ParseResult, where: string, purpose: NoStepsPurpose = 'reference'): Step[] {
  if (parsed.steps.length === 0) throw noStepsError(where, parsed.diagnostics[0], purpose);
  return parsed.steps;
}

/**
 * A body's array of steplens records parsed a slice of records at a time (T99): parsed in one go, 5,000 records of 12 KB
 * held the scoring worker 0.25-0.5 s at load 9-10, every other tenant's job there waiting. The same result as
 * `parseInstances` gives it (the steplens parser is its stream over the records, meta `{}`); undefined for anything
 * else (another format, a document, one nested too deep), which the caller parses as before.
 */
async function steplensRecordsInSlices(doc: unknown, format: FormatName | 'auto'): Promise<ParseResult | undefined> {
  if (!Array.isArray(doc) || (format !== 'auto' && format !== 'steplens')) return undefined;
  const parser = getParser('steplens');
  const detected = format === 'auto' ? detectFormat(doc) === 'steplens' : parser.detect(doc);
  if (!detected || nestedDeeperThan(doc)) return undefined;
  const stream = parser.stream();
  const steps: Step[] = [];
  const diagnostics: Diagnostic[] = [];
  const take = (r: { steps: Step[]; diagnostics: Diagnostic[] }): void => {
    steps.push(...r.steps);
    diagnostics.push(...r.diagnostics);
  };
  await eachInSlices(parser.events(doc), (record) => take(stream.push(record)));
  take(stream.end());
  return { format: 'steplens', meta: {}, steps, diagnostics };
}

/**
 * A log sent as its text (a JSON string) read as {@link instancesOf} reads it, its JSON lines parsed a slice of lines at
 * a time and steplens records then as an array's (T100: 60 MB of JSON Lines parsed in one go held the scoring worker
 * 6.6-7.6 s of another tenant's wait at load 11-14). One JSON document in the text is still parsed whole.
 */
async function textInstancesInSlices(text: string, format: FormatName | 'auto', where: string): Promise<{ instances: ParseResult[]; text: Diagnostic[] }> {
  const loaded = await loadLogText(text, where, eachInSlices);
  if (!loaded.ok) throw loaded.error;
  const records = await steplensRecordsInSlices(loaded.value.doc, format);
  if (records !== undefined) return { instances: [remapToLines(records, loaded.value)], text: loaded.value.diagnostics };
  const log = parseLoadedLog(loaded.value, format, where);
  if (!log.ok) throw log.error;
  return { instances: log.value.instances, text: log.value.diagnostics };
}

/** The one run of a body's `trajectory` read in slices (an array of steplens records, or a log's text); undefined: read it whole. */
async function oneInstanceInSlices(doc: unknown, format: FormatName | 'auto', where: string, task?: string): Promise<ParseResult | undefined> {
  if (typeof doc === 'string') return chosenInstance(await textInstancesInSlices(doc, format, where), where, task);
  return steplensRecordsInSlices(doc, format);
}

/** As {@link trajectoryDocument}, in slices (see {@link oneInstanceInSlices}). */
export async function trajectoryDocumentInSlices(doc: unknown, format: FormatName | 'auto' | undefined, where = 'body.trajectory', task?: string): Promise<ReturnType<typeof trajectoryDocument>> {
  const one = await oneInstanceInSlices(doc, format ?? 'auto', where, task);
  if (one === undefined) return trajectoryDocument(doc, format, where, task);
  return { steps: stepsToScore(one, where), meta: one.meta, format: one.format, diagnostics: one.diagnostics };
}

/** As {@link trajectorySteps}, in slices (see {@link oneInstanceInSlices}). */
export async function trajectoryStepsInSlices(doc: unknown, format: FormatName | 'auto' | undefined, where = 'body.trajectory', task?: string): Promise<Step[]> {
  const one = await oneInstanceInSlices(doc, format ?? 'auto', where, task);
  return one === undefined ? trajectorySteps(doc, format, where, task) : nonEmptySteps(one, where);
}

/** Scores a whole trajectory the way a session would (same code, same report), yielding between slices of steps (job-slices.ts). */
export async function scoreTrajectory(
  steps: readonly Step[],
  opts: { reference: Reference; analyzers: Analyzers; policy: Policy; config: ScoringConfig; passed?: boolean; forecast?: ForecastModel; forecastVersion?: number },
): Promise<TrajectoryReport> {
  const scorer = createScorer({
    reference: opts.reference,
    analyzers: opts.analyzers,
    policy: opts.policy,
    config: opts.config,
    ...(opts.forecast !== undefined ? { forecast: opts.forecast } : {}),
  });
  await pushInSlices(scorer, numberedSteps(steps));
  const report = scorer.report(opts.passed);
  return opts.forecastVersion !== undefined ? { ...report, forecastVersion: opts.forecastVersion } : report;
}

/** The states of a trajectory (labels do not depend on the reference; the prior is used), in slices as {@link scoreTrajectory}. */
export async function trajectoryStates(steps: readonly Step[], analyzers: Analyzers, reference: Reference): Promise<State[]> {
  const scorer = createScorer({ reference, analyzers });
  await pushInSlices(scorer, numberedSteps(steps));
  return [...scorer.states()];
}
