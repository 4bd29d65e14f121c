/**
 * mini-swe-agent `.traj.json` logs, format `mini-swe-agent`: `mini-swe-agent-1` (the command is the
 * one ```bash block of the assistant text, `<returncode>` in the next user message) and
 * `mini-swe-agent-1.1` (mini-swe-agent 2: OpenAI tool calls, `tool` results with `extra.returncode`, a final
 * `exit`). Version 2 also runs text-based models (`litellm_textbased`, `openrouter_textbased`): no tool calls,
 * the command in a ```mswea_bash_command block, the parsed commands in `extra.actions`, each result a `user`
 * message with `extra.returncode`. Its Responses-API models log `response` objects and `function_call_output`
 * items (mini-responses.ts).
 *
 * Steps (method.md section 1): v1, one per assistant message; v1.1, one per tool call of each
 * assistant message, or per `extra.actions` entry of a text-based one (a message with neither, nor one command
 * block, is one step, kind `none`, and so is a turn logged only as its `FormatError` reply).
 *
 * Stream events: one per entry of `messages[]`, as written. An assistant message opens its steps;
 * the following `user` / `tool` / `exit` message completes them; the next assistant message or
 * `end()` flushes any step whose result never came.
 */
import type { Action } from '../core/types.js';
import { arr, isRecord, isoTime, num, str, textOf, toolCallsOf, typeName, type Rec } from './json-helpers.js';
import { compact, usageTokens } from './step-builder.js';
import { StepQueue, type PendingStep } from './step-queue.js';
import { runStream } from './stream-runner.js';
import { exitCodeFromText } from './exit-code.js';
import { chatShape } from './mini-responses.js';
import { shellAction, toolCallAction } from './tool-actions.js';
import type { Diagnostic, FormatParser, ParseResult, StreamParser, TrajectoryMeta } from './types.js';

/** Where a command block opens: v1's ```bash, or v2's text-based ```mswea_bash_command (its default `action_regex`). */
const FENCE = /```(?:bash|mswea_bash_command)/g;
const BLANKS = /\s*/y;

/**
 * The command blocks of an assistant text (at most `max`, in order): what ```` /```(?:bash|mswea_bash_command)\s*\n([\s\S]*?)\n```/g ````
 * (the action regex) matches, without its backtracking: the body starts after the last newline of the blanks after
 * the fence and ends at the next "\n```"; with none after it, the body is the blanks between the last two newlines of
 * those blanks when "```" follows them at once. The regex tried every newline of the blanks, each time to the end of
 * the text (64 KiB of newlines after a fence: 0.64 s; 256 KiB of unclosed fences, 1.1 s).
 */
export function bashBlocks(content: string, max = Infinity): Array<{ index: number; body: string }> {
  const out: Array<{ index: number; body: string }> = [];
  let unclosedFrom = Infinity; // no "\n```" at or after this position
  FENCE.lastIndex = 0;
  while (out.length < max) {
    const open = FENCE.exec(content);
    if (open === null) break;
    const start = open.index + open[0].length;
    BLANKS.lastIndex = start;
    BLANKS.exec(content);
    let nl = BLANKS.lastIndex - 1;
    while (nl >= start && content.charCodeAt(nl) !== 10) nl--;
    if (nl < start) {
      FENCE.lastIndex = open.index + 1;
      continue;
    }
    const close = nl + 1 >= unclosedFrom ? -1 : content.indexOf('\n```', nl + 1);
    if (close >= 0) {
      out.push({ index: open.index, body: content.slice(nl + 1, close) });
      FENCE.lastIndex = close + 4;
      continue;
    }
    unclosedFrom = Math.min(unclosedFrom, nl + 1);
    let prev = nl - 1;
    while (prev >= start && content.charCodeAt(prev) !== 10) prev--;
    if (prev >= start && content.startsWith('```', nl + 1)) {
      out.push({ index: open.index, body: content.slice(prev + 1, nl) });
      FENCE.lastIndex = nl + 4;
    } else FENCE.lastIndex = open.index + 1;
  }
  return out;
}

function isMini(doc: unknown): doc is Rec {
  if (!isRecord(doc) || !Array.isArray(doc.messages)) return false;
  const fmt = str(doc.trajectory_format);
  if (fmt !== undefined) return fmt.startsWith('mini-swe-agent');
  const info = isRecord(doc.info) ? doc.info : undefined;
  return info !== undefined && ('mini_version' in info || 'submission' in info);
}

/** The command of a v1 assistant message, or why there is none. */
function bashBlock(content: string): { command?: string; thought: string } {
  const blocks = bashBlocks(content, 2);
  const first = blocks[0];
  const thought = (first === undefined ? content : content.slice(0, first.index)).replace(/^\s*THOUGHT:\s*/, '').trim();
  return blocks.length === 1 && first !== undefined ? { command: first.body, thought } : { thought };
}

class MiniStream implements StreamParser {
  private queue = new StepQueue();
  private n = 0;
  private seenAssistant = false;

  push(raw: unknown): ReturnType<StreamParser['push']> {
    const at = `event ${this.n++}`;
    const diagnostics: Diagnostic[] = [];
    if (!isRecord(raw)) return { steps: [], diagnostics: [{ at, message: `expected a message object, got ${typeName(raw)}` }] };
    const event = chatShape(raw);
    const role = str(event.role);
    const extra = isRecord(event.extra) ? event.extra : {};
    const content = textOf(event.content) ?? '';
    if (role === 'assistant') {
      this.queue.closeOtherGroups(undefined);
      const steps = this.queue.drain();
      this.seenAssistant = true;
      this.openSteps(event, extra, content);
      return { steps, diagnostics };
    }
    if (role === 'tool') {
      const key = str(event.tool_call_id);
      const c = { observation: content, exitCode: num(extra.returncode) ?? exitCodeFromText(content) };
      if (key === undefined || !this.queue.complete(key, c)) {
        if (!this.queue.completeLast(c)) diagnostics.push({ at, message: `tool result ${key ?? '(no id)'} has no pending tool call; ignored` });
      }
    } else if (role === 'user' && extra.interrupt_type === 'FormatError' && !this.queue.hasPending()) {
      // v1.1 logs a model turn without a tool call (or text-based, without exactly one command block) only as this
      // reply: a step with no action (method.md section 1), its observation the reply, its thought the rejected text
      // where the text-based model keeps it (`model_response`). After a logged turn still waiting, it completes that.
      const step = { tool: '', action: { kind: 'none' } as const, timestamp: isoTime(extra.timestamp), observation: content, thought: str(extra.model_response) };
      this.queue.add(this.pending(step), { done: true });
    } else if (role === 'user' && num(extra.returncode) !== undefined) {
      // A text-based turn's results: one `user` message per command, in command order.
      if (!this.queue.completeFirst({ observation: content, exitCode: num(extra.returncode) })) {
        diagnostics.push({ at, message: 'command result has no pending command; ignored' });
      }
    } else if (role === 'user' || role === 'exit') {
      if (this.seenAssistant) this.queue.completeLast({ observation: content, exitCode: exitCodeFromText(content) });
      if (role === 'exit') this.queue.closeOtherGroups(undefined);
    } else if (role !== 'system') {
      diagnostics.push({ at, message: `unknown message role ${JSON.stringify(event.role)}; ignored` });
    }
    return { steps: this.queue.drain(), diagnostics };
  }

  end(): ReturnType<StreamParser['end']> {
    return { steps: this.queue.drain(true), diagnostics: [] };
  }

  private openSteps(m: Rec, extra: Rec, content: string): void {
    const response = isRecord(extra.response) ? extra.response : {};
    const tokens = usageTokens(response.usage);
    const timestamp = isoTime(response.created) ?? isoTime(extra.timestamp);
    const calls = toolCallsOf(m);
    if (calls.length > 0) {
      calls.forEach(({ name = 'bash', args, id }, i) => {
        const action: Action = toolCallAction(name, args);
        this.queue.add(this.pending({ tool: name, args, action, id, tokens: i === 0 ? tokens : undefined, timestamp, thought: content }), { key: id });
      });
      return;
    }
    const { command, thought } = bashBlock(content);
    if (Array.isArray(extra.actions)) {
      // The commands the agent parsed and ran (text-based models, human turns); none when it found none.
      const actions = extra.actions.filter(isRecord).flatMap((a) => (typeof a.command === 'string' ? [{ command: a.command, id: str(a.tool_call_id) }] : []));
      if (actions.length === 0) this.queue.add(this.pending({ tool: '', action: { kind: 'none' }, tokens, timestamp, thought: content }));
      actions.forEach(({ command: c, id }, i) => {
        const step = { tool: 'bash', args: { command: c }, action: shellAction(c), id, tokens: i === 0 ? tokens : undefined, timestamp, thought };
        this.queue.add(this.pending(step), { key: id });
      });
      return;
    }
    const action: Action = command === undefined ? { kind: 'none' } : shellAction(command);
    this.queue.add(this.pending({ tool: command === undefined ? '' : 'bash', args: command === undefined ? undefined : { command }, action, tokens, timestamp, thought }));
  }

  private pending(p: Omit<PendingStep, 'toAction'> & { action: Action }): PendingStep {
    const { action, ...rest } = p;
    return { ...rest, toAction: () => action };
  }
}

function meta(doc: Rec): TrajectoryMeta {
  const info = isRecord(doc.info) ? doc.info : {};
  const config = isRecord(info.config) ? info.config : {};
  const model = isRecord(config.model) ? config.model : {};
  const version = str(info.mini_version);
  return compact<TrajectoryMeta>({
    task: str(doc.instance_id),
    model: str(model.model_name),
    agent: version === undefined ? 'mini-swe-agent' : `mini-swe-agent ${version}`,
    patch: str(info.submission) || undefined,
    exitStatus: str(info.exit_status),
  });
}

/** The mini-swe-agent parser (trajectory formats 1 and 1.1). */
export const miniSweAgentParser: FormatParser = {
  name: 'mini-swe-agent',
  detect: isMini,
  events: (doc) => (isMini(doc) ? [...arr(doc.messages)] : []),
  stream: () => new MiniStream(),
  parse(doc): ParseResult {
    if (!isMini(doc)) {
      return { format: 'mini-swe-agent', meta: {}, steps: [], diagnostics: [{ at: 'document', message: `expected a mini-swe-agent trajectory object with \`messages\`, got ${typeName(doc)}` }] };
    }
    const r = runStream(new MiniStream(), arr(doc.messages));
    return { format: 'mini-swe-agent', meta: meta(doc), ...r };
  },
};
