/**
 * OpenHands event streams (the `history` of an `output.jsonl` line, or a raw JSON array of events).
 *
 * One step per agent action event (method.md section 1), excluding the `system` prompt event;
 * the step is paired with the observation event whose `cause` is the action's `id`. The older flat
 * schema (no ids: `{action:"run", command}` then `{observation:"run", exit_code}`) pairs an
 * observation with the action just before it. Steps are emitted in action order, as soon as they
 * are complete: when their observation arrives, at once for actions that get none (`finish`,
 * `message`, ...), or when the agent starts its next LLM turn.
 *
 * The OpenHands V1 SDK (software-agent-sdk, `OpenHands/benchmarks` outputs) writes typed events instead:
 * `{kind:"ActionEvent", source:"agent", tool_name, tool_call_id, tool_call:{arguments}, action:{kind, ...},
 * llm_response_id}` and `{kind:"ObservationEvent", tool_call_id, action_id, observation:{kind, output | content,
 * metadata:{exit_code, working_dir}}}` (`AgentErrorEvent` / `UserRejectObservation` answer a call too; an agent
 * `MessageEvent` is a message step). They pair by `tool_call_id`.
 */
import type { Action } from '../core/types.js';
import { arr, isRecord, num, str, textOf, toolArgs, typeName, type Rec } from './json-helpers.js';
import { usageTokens } from './step-builder.js';
import { StepQueue } from './step-queue.js';
import { editorAction, toolCallAction } from './tool-actions.js';
import type { Diagnostic, StreamParser } from './types.js';

/** Actions after which no observation follows. */
const NO_OBSERVATION = new Set(['message', 'finish', 'reject', 'condensation', 'condensation_request', 'change_agent_state', 'delegate', 'null']);
/** Action events that are not agent turns. */
const NOT_STEPS = new Set(['system', 'recall', 'change_agent_state', 'null']);

/** V1 SDK event kinds that answer a tool call (their `tool_call_id` names it). */
const V1_RESULTS = new Set(['ObservationEvent', 'AgentErrorEvent', 'UserRejectObservation']);

/** True when the value is an OpenHands V1 SDK event (`kind: "ActionEvent"`, `"ObservationEvent"`, ...). */
function isV1Event(e: unknown): e is Rec {
  return isRecord(e) && !('role' in e) && typeof e.kind === 'string' && (e.kind.endsWith('Event') || V1_RESULTS.has(e.kind));
}

/** True when the value is an OpenHands action or observation event (the V0 schema, or a V1 SDK event). */
export function isOpenHandsEvent(e: unknown): e is Rec {
  return isRecord(e) && !('role' in e) && (typeof e.action === 'string' || typeof e.observation === 'string' || isV1Event(e));
}

function actionOf(kind: string, args: Rec, message: string | undefined, observation: string | undefined): Action {
  switch (kind) {
    case 'run':
      return toolCallAction('bash', { command: str(args.command) ?? '' });
    case 'run_ipython':
      return { kind: 'code', language: 'python', code: str(args.code) ?? '' };
    case 'read':
      return editorAction({ ...args, command: 'view' }, observation);
    case 'edit':
      return editorAction(args, observation);
    case 'think':
      return { kind: 'think', text: str(args.thought) ?? message };
    case 'finish':
      return { kind: 'finish', text: str(args.final_thought) ?? str(args.thought) ?? message };
    case 'message':
      return { kind: 'message', text: str(args.content) ?? message };
    case 'condensation':
    case 'task_tracking':
      return { kind: 'think', text: message };
    default:
      return { kind: 'other', name: kind };
  }
}

/** Streams OpenHands action/observation events into steps. */
export class OpenHandsEventStream implements StreamParser {
  private queue = new StepQueue();
  private n = 0;
  private seenAgentAction = false;
  private seenResponses = new Set<string>();

  push(event: unknown): ReturnType<StreamParser['push']> {
    const at = `event ${this.n++}`;
    const diagnostics: Diagnostic[] = [];
    if (!isOpenHandsEvent(event)) {
      return { steps: [], diagnostics: [{ at, message: `expected an OpenHands action or observation event, got ${isRecord(event) ? 'an object without `action`/`observation`' : typeName(event)}` }] };
    }
    if (typeof event.action === 'string') this.onAction(event, event.action);
    else if (typeof event.observation === 'string') this.onObservation(event, diagnostics, at);
    else this.onV1Event(event, diagnostics, at);
    return { steps: this.queue.drain(), diagnostics };
  }

  end(): ReturnType<StreamParser['end']> {
    return { steps: this.queue.drain(true), diagnostics: [] };
  }

  private onAction(e: Rec, kind: string): void {
    const source = str(e.source);
    if (NOT_STEPS.has(kind) || source === 'user' || source === 'environment') return;
    // Old flat schema has no `source`: leading messages before any agent action are the task.
    if (source === undefined && kind === 'message' && !this.seenAgentAction) return;
    this.seenAgentAction = true;
    const args = isRecord(e.args) ? e.args : e;
    const meta = isRecord(e.tool_call_metadata) ? e.tool_call_metadata : {};
    const response = isRecord(meta.model_response) ? meta.model_response : {};
    const responseId = str(response.id);
    this.queue.closeOtherGroups(responseId);
    const firstOfResponse = responseId === undefined || !this.seenResponses.has(responseId);
    if (responseId !== undefined) this.seenResponses.add(responseId);
    const message = str(e.message);
    const id = typeof e.id === 'number' || typeof e.id === 'string' ? String(e.id) : undefined;
    const callArgs = { ...args };
    delete callArgs.thought;
    if (args === e) for (const k of ['action', 'keep_prompt', 'is_confirmed', 'action_risk']) delete callArgs[k];
    this.queue.add(
      {
        tool: str(meta.function_name) ?? kind,
        args: callArgs,
        toAction: (obs) => actionOf(kind, args, message, obs),
        tokens: firstOfResponse ? usageTokens(response.usage) : undefined,
        timestamp: str(e.timestamp),
        thought: str(args.thought),
        id: str(meta.tool_call_id) ?? id,
      },
      { done: NO_OBSERVATION.has(kind), key: id, group: responseId },
    );
  }

  private onV1Event(e: Rec, diagnostics: Diagnostic[], at: string): void {
    const kind = str(e.kind);
    if (kind === 'ActionEvent' && e.source === 'agent') {
      const action = isRecord(e.action) ? e.action : {};
      const call = isRecord(e.tool_call) ? e.tool_call : {};
      const args = 'arguments' in call ? toolArgs(call.arguments) : Object.fromEntries(Object.entries(action).filter(([k]) => k !== 'kind'));
      const tool = str(e.tool_name) ?? str(call.name) ?? str(action.kind) ?? '';
      const responseId = str(e.llm_response_id);
      this.queue.closeOtherGroups(responseId);
      this.seenAgentAction = true;
      const thought = textOf(e.thought) || str(e.reasoning_content);
      const id = str(e.tool_call_id) ?? str(e.id);
      this.queue.add({ tool, args, toAction: (obs) => toolCallAction(tool, args, obs), timestamp: str(e.timestamp), thought, id }, { key: id, group: responseId });
    } else if (kind === 'MessageEvent' && e.source === 'agent') {
      const llm = isRecord(e.llm_message) ? e.llm_message : {};
      const text = textOf(llm.content);
      this.queue.closeOtherGroups(undefined);
      this.seenAgentAction = true;
      this.queue.add({ tool: '', toAction: () => ({ kind: 'message', text }), timestamp: str(e.timestamp) }, { done: true });
    } else if (kind !== undefined && V1_RESULTS.has(kind)) {
      const obs = isRecord(e.observation) ? e.observation : {};
      const md = isRecord(obs.metadata) ? obs.metadata : {};
      const key = str(e.tool_call_id) ?? str(e.action_id);
      const c = {
        observation: textOf(obs.content) ?? str(obs.output) ?? str(obs.message) ?? str(e.error) ?? str(e.rejection_reason),
        exitCode: num(md.exit_code) ?? num(obs.exit_code),
        cwd: str(md.working_dir),
      };
      if (key === undefined || !this.queue.complete(key, c)) diagnostics.push({ at, message: `${kind} for tool call ${key ?? '(no id)'} has no pending action; ignored` });
    }
  }

  private onObservation(e: Rec, diagnostics: Diagnostic[], at: string): void {
    const extras = isRecord(e.extras) ? e.extras : {};
    const md = isRecord(extras.metadata) ? extras.metadata : {};
    const observation = textOf(e.content) ?? str(e.message);
    const c = {
      observation,
      exitCode: num(md.exit_code) ?? num(e.exit_code) ?? num(extras.exit_code),
      cwd: str(md.working_dir),
    };
    if (typeof e.cause === 'number' || typeof e.cause === 'string') {
      this.queue.complete(String(e.cause), c);
      return;
    }
    if (e.id === undefined && !this.queue.completeLast(c) && this.seenAgentAction) {
      diagnostics.push({ at, message: 'observation without a pending action; ignored' });
    }
  }
}

/** The event list of an OpenHands document: an instance's `history`, or a raw event array. */
export function historyOf(doc: unknown): unknown[] {
  if (Array.isArray(doc)) return doc;
  return isRecord(doc) ? arr(doc.history) : [];
}
