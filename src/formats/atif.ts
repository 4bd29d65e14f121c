/**
 * ATIF (Agent Trajectory Interchange Format) v1.4-v1.7: `steps[]` whose agent steps carry
 * `tool_calls` (`tool_call_id`, `function_name`, `arguments`), `observation.results`
 * (`source_call_id`, `content`) and per-step `metrics` tokens. Also the older variant
 * (`schema_version` "1.4", calls with `id`/`name`, results in separate `source: "system"` steps
 * that say `Tool result for <id>`, possibly before the agent step that holds the call).
 *
 * Steps (method.md section 1): one per tool call of each agent step (none = one step, kind `none`).
 * Harbor's Claude Code export splits one model message into several agent steps that repeat the message's
 * `metrics`: its reasoning, its text, then one step per tool call whose `message` is only
 * `Executed <tool> <call id>`. Such a tool step is read as part of the message before it: the text-only
 * steps of that message become its thought (not steps of kind `none`) and the message's tokens count once.
 * A message without tool calls written as several text-only steps (its final answer) is one step.
 * Claude Code's observations are read without Harbor's restatement of the output and its subagent (sidechain)
 * steps are left out (atif-claude-code.ts); Codex's exit codes are read from Harbor's `extra` (atif-codex.ts).
 * Stream events: one per entry of `steps[]`, as written.
 */
import { claudeToolOutput, isSidechain, SIDECHAIN_NOTE } from './atif-claude-code.js';
import { codexExitCode } from './atif-codex.js';
import { arr, isRecord, jsonValue, str, textOf, toolArgs, typeName, type Rec } from './json-helpers.js';
import { compact, usageTokens } from './step-builder.js';
import { StepQueue } from './step-queue.js';
import { runStream } from './stream-runner.js';
import { toolCallAction } from './tool-actions.js';
import type { Diagnostic, FormatParser, ParseResult, StreamParser, TrajectoryMeta } from './types.js';

function isAtif(doc: unknown): doc is Rec {
  return isRecord(doc) && Array.isArray(doc.steps) && typeof doc.schema_version === 'string' && /^(ATIF-v)?1\.\d+/.test(doc.schema_version);
}

interface Result {
  callId?: string;
  content?: string;
}

/** A step's results; a Claude Code result is its tool's own output (atif-claude-code.ts), not Harbor's restatement. */
function resultsOf(observation: unknown, stepExtra: unknown): Result[] {
  const obs = jsonValue(observation);
  if (!isRecord(obs)) return [];
  if (Array.isArray(obs.results)) {
    return obs.results.filter(isRecord).map((r) => {
      const callId = str(r.source_call_id);
      return { callId, content: claudeToolOutput(r, stepExtra, callId) ?? textOf(r.content) };
    });
  }
  const content = textOf(obs.content) ?? (isRecord(obs.result) ? (str(obs.result.output) ?? str(obs.result.error)) : undefined);
  return [{ callId: str(obs.tool_use_id) ?? str(obs.source_call_id), content }];
}

function joined(results: Result[]): string | undefined {
  const parts = results.map((r) => r.content).filter((c): c is string => c !== undefined);
  return parts.length > 0 ? parts.join('\n') : undefined;
}

/** `metrics` as a comparable key (undefined when absent): split steps of one model message repeat it. */
function metricsKey(metrics: unknown): string | undefined {
  const m = jsonValue(metrics);
  return isRecord(m) ? JSON.stringify(m) : undefined;
}

/** True when a one-call step's message is Harbor's `Executed <tool> <call id>` placeholder (a split tool step). */
function isSplitToolStep(message: string | undefined, calls: Rec[]): boolean {
  if (message === undefined || calls.length !== 1) return false;
  const c = calls[0]!;
  return message === `Executed ${str(c.function_name) ?? str(c.name) ?? ''} ${str(c.tool_call_id) ?? str(c.id) ?? ''}`;
}

/** The reasoning and text of held steps, joined (Harbor writes an absent reasoning as the string `null`). */
function textParts(steps: Held['steps']): string {
  return steps
    .flatMap((h) => [str(h.s.reasoning_content), textOf(h.s.message)])
    .filter((t): t is string => t !== undefined && t !== '' && t !== 'null')
    .join('\n\n');
}

/** A text-only agent step held back until the next event shows whether a split tool step of its message follows. */
interface Held {
  key: string;
  steps: Array<{ s: Rec; results: Result[] }>;
}

class AtifStream implements StreamParser {
  private queue = new StepQueue();
  private n = 0;
  private early = new Map<string, string | undefined>();
  private held: Held | undefined;
  /** The metrics key of the last split tool step (its message's tokens are counted). */
  private lastKey: string | undefined;
  /** Where the first subagent (sidechain) step was: said once, at the end (see `push`). */
  private sidechainAt: string | undefined;

  push(event: unknown): ReturnType<StreamParser['push']> {
    const at = `event ${this.n++}`;
    const diagnostics: Diagnostic[] = [];
    if (!isRecord(event)) return { steps: [], diagnostics: [{ at, message: `expected an ATIF step object, got ${typeName(event)}` }] };
    // A subagent's step touches no state of the main run: held text and split tool steps read on across it. It is a
    // good event, so no diagnostic here: a live session refuses an event that gives one and no step (server/session.ts).
    if (isSidechain(event)) {
      this.sidechainAt ??= at;
      return { steps: [], diagnostics };
    }
    const results = resultsOf(event.observation, event.extra);
    if (event.source === 'agent') this.onAgent(event, results);
    else {
      this.flushHeld();
      this.lastKey = undefined;
      this.onResults(event, results);
    }
    return { steps: this.queue.drain(), diagnostics };
  }

  end(): ReturnType<StreamParser['end']> {
    this.flushHeld();
    return { steps: this.queue.drain(true), diagnostics: this.sidechainAt !== undefined ? [{ at: this.sidechainAt, message: SIDECHAIN_NOTE }] : [] };
  }

  /**
   * Emits the held text-only steps (no split tool step of their message followed): one as it is, several
   * (one message's reasoning and text, e.g. Claude Code's final answer) as one step of kind `none`.
   */
  private flushHeld(): void {
    const held = this.held;
    this.held = undefined;
    if (held === undefined) return;
    const [first, ...rest] = held.steps;
    if (first === undefined) return;
    if (rest.length === 0) {
      this.addAgent(first.s, first.results);
      return;
    }
    const thought = textParts(held.steps);
    this.addAgent(
      first.s,
      held.steps.flatMap((h) => h.results),
      { thought: thought === '' ? undefined : thought, countTokens: true },
    );
  }

  private onAgent(s: Rec, results: Result[]): void {
    const calls = arr(jsonValue(s.tool_calls)).filter(isRecord);
    const key = metricsKey(s.metrics);
    if (calls.length === 0 && results.length === 0 && key !== undefined) {
      if (this.held?.key !== key) this.flushHeld();
      this.held ??= { key, steps: [] };
      this.held.steps.push({ s, results });
      this.lastKey = undefined;
      return;
    }
    if (key !== undefined && isSplitToolStep(textOf(s.message), calls)) {
      const held = this.held?.key === key ? this.held : undefined;
      if (held === undefined) this.flushHeld();
      this.held = undefined;
      const thought = textParts(held?.steps ?? []);
      // Tokens count on the message's first tool step: a held text step was not counted, an earlier tool step was.
      const counted = held === undefined && this.lastKey === key;
      this.lastKey = key;
      this.addAgent(s, results, { thought: thought === '' ? undefined : thought, countTokens: !counted });
      return;
    }
    this.flushHeld();
    this.lastKey = undefined;
    this.addAgent(s, results);
  }

  private addAgent(s: Rec, results: Result[], split?: { thought: string | undefined; countTokens: boolean }): void {
    const calls = arr(jsonValue(s.tool_calls)).filter(isRecord);
    const tokens = split === undefined || split.countTokens ? usageTokens(jsonValue(s.metrics)) : undefined;
    const timestamp = str(s.timestamp);
    const message = textOf(s.message);
    const thought = split === undefined ? (str(s.reasoning_content) ?? message) : split.thought;
    if (calls.length === 0) {
      this.queue.add({ tool: '', toAction: () => ({ kind: 'none' }), observation: joined(results), tokens, timestamp, thought }, { done: true });
      return;
    }
    const positional = results.every((r) => r.callId === undefined) && results.length === calls.length;
    calls.forEach((c, i) => {
      const name = str(c.function_name) ?? str(c.name) ?? '';
      const args = toolArgs(c.arguments);
      const id = str(c.tool_call_id) ?? str(c.id);
      let observation: string | undefined;
      let done = true;
      const own = results.filter((r) => r.callId !== undefined && r.callId === id);
      if (own.length > 0) observation = joined(own);
      else if (positional) observation = results[i]?.content;
      else if (calls.length === 1 && results.length > 0 && results.every((r) => r.callId === undefined)) observation = joined(results);
      else if (id !== undefined && this.early.has(id)) observation = this.early.get(id);
      else if (id !== undefined && c.function_name === undefined) done = false;
      const exitCode = codexExitCode(s, id, calls.length);
      this.queue.add({ tool: name, args, toAction: (obs) => toolCallAction(name, args, obs), observation, exitCode, tokens: i === 0 ? tokens : undefined, timestamp, thought, id }, { done, key: id });
    });
  }

  private onResults(s: Rec, results: Result[]): void {
    const named = /Tool result for (\S+)/.exec(textOf(s.message) ?? '')?.[1];
    for (const r of results) {
      const id = r.callId ?? named;
      if (id === undefined) continue;
      if (!this.queue.complete(id, { observation: r.content })) this.early.set(id, r.content);
    }
  }
}

function meta(doc: Rec): TrajectoryMeta {
  const agent = isRecord(doc.agent) ? doc.agent : {};
  const name = str(agent.name);
  const version = str(agent.version);
  return compact<TrajectoryMeta>({
    model: str(agent.model_name) ?? str(agent.model),
    agent: name === undefined ? undefined : version === undefined ? name : `${name} ${version}`,
  });
}

/** The ATIF parser (v1.4-v1.7 and the older system-step variant). */
export const atifParser: FormatParser = {
  name: 'atif',
  detect: isAtif,
  events: (doc) => (isAtif(doc) ? [...arr(doc.steps)] : []),
  stream: () => new AtifStream(),
  parse(doc): ParseResult {
    if (!isAtif(doc)) {
      return { format: 'atif', meta: {}, steps: [], diagnostics: [{ at: 'document', message: `expected an ATIF object with \`schema_version\` and \`steps\`, got ${typeName(doc)}` }] };
    }
    return { format: 'atif', meta: meta(doc), ...runStream(new AtifStream(), arr(doc.steps)) };
  },
};
