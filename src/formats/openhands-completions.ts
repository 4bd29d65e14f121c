/**
 * OpenHands LLM-completion logs (one JSON per instance: the last LLM call with `fncall_messages`
 * and `fncall_response`). Steps (method.md section 1): one per tool call of each assistant message
 * in `fncall_messages` (none = one step), then the tool calls of the final `fncall_response`.
 * Exit codes exist only as text (`[Command finished with exit code N]`).
 *
 * Stream events: each `fncall_messages` entry as written (OpenAI chat messages), then the final
 * response message (`fncall_response.choices[0].message`). A `tool` message completes the call
 * with its `tool_call_id`.
 */
import { arr, isRecord, str, textOf, toolCallsOf, typeName, type Rec } from './json-helpers.js';
import { StepQueue } from './step-queue.js';
import { toolCallAction } from './tool-actions.js';
import type { Diagnostic, StreamParser } from './types.js';

/** True when the value is an OpenHands completion log. */
export function isCompletionLog(doc: unknown): doc is Rec {
  return isRecord(doc) && Array.isArray(doc.fncall_messages);
}

/** The completion log as stream events: its chat messages, then the final response message. */
export function completionEvents(doc: Rec): unknown[] {
  const events = [...arr(doc.fncall_messages)];
  const resp = isRecord(doc.fncall_response) ? doc.fncall_response : undefined;
  const choice = resp === undefined ? undefined : arr(resp.choices)[0];
  if (isRecord(choice) && isRecord(choice.message)) events.push({ ...choice.message, role: 'assistant' });
  return events;
}

/** Streams OpenAI-style chat messages (assistant tool calls + tool results) into steps. */
export class ChatMessageStream implements StreamParser {
  private queue = new StepQueue();
  private n = 0;
  private seenAssistant = false;

  push(event: unknown): ReturnType<StreamParser['push']> {
    const at = `event ${this.n++}`;
    const diagnostics: Diagnostic[] = [];
    if (!isRecord(event) || typeof event.role !== 'string') {
      return { steps: [], diagnostics: [{ at, message: `expected a chat message with a \`role\`, got ${isRecord(event) ? 'an object without `role`' : typeName(event)}` }] };
    }
    const content = textOf(event.content);
    if (event.role === 'assistant') {
      this.queue.closeOtherGroups(undefined);
      this.seenAssistant = true;
      const calls = toolCallsOf(event);
      if (calls.length === 0) this.queue.add({ tool: '', toAction: () => ({ kind: 'none' }), thought: content }, { done: true });
      for (const { name = '', args, id } of calls) {
        this.queue.add({ tool: name, args, toAction: (obs) => toolCallAction(name, args, obs), thought: content, id }, { key: id });
      }
    } else if (event.role === 'tool') {
      const id = str(event.tool_call_id);
      const c = { observation: content };
      if ((id === undefined || !this.queue.complete(id, c)) && !this.queue.completeLast(c)) {
        diagnostics.push({ at, message: `tool result ${id ?? '(no id)'} has no pending tool call; ignored` });
      }
    } else if (event.role === 'user' && this.seenAssistant) {
      this.queue.completeLast({ observation: content });
    }
    return { steps: this.queue.drain(), diagnostics };
  }

  end(): ReturnType<StreamParser['end']> {
    return { steps: this.queue.drain(true), diagnostics: [] };
  }
}
