/**
 * OpenHands event streams (the `history` of an `output.jsonl` line, or a raw JSON array of events).
 *
 * One step per agent action event (method.md section 1), excluding the `system` prompt event;
 * the step is paired with the observation event whose `cause` is the action's `id`. The older flat
 * schema (no ids: `{action:"run", command}` then `{observation:"run", exit_code}`) pairs an
 * observation with the action just before it. Steps are emitted in action order, as soon as they
 * are complete: when their observation arrives, at once for actions that get none (`finish`,
 * `message`, ...), or when the agent starts its next LLM turn.
 */
import type { Action } from '../core/types.js';
import { arr, isRecord, num, str, textOf, typeName, type Rec } from './json-helpers.js';
import { usageTokens } from './step-builder.js';
import { StepQueue } from './step-queue.js';
import { editorAction, toolCallAction } from './tool-actions.js';
import type { Diagnostic, StreamParser } from './types.js';

/** Actions after which no observation follows. */
const NO_OBSERVATION = new Set(['message', 'finish', 'reject', 'condensation', 'condensation_request', 'change_agent_state', 'delegate', 'null']);
/** Action events that are not agent turns. */
const NOT_STEPS = new Set(['system', 'recall', 'change_agent_state', 'null']);

/** True when the value is an OpenHands action or observation event. */
export function isOpenHandsEvent(e: unknown): e is Rec {
  return isRecord(e) && !('role' in e) && (typeof e.action === 'string' || typeof e.observation === 'string');
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
    else this.onObservation(event, diagnostics, at);
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
