/**
 * SWE-agent `.traj` logs, 1.x (function calling) and 0.x (ACI commands), format `swe-agent`.
 *
 * One step per `trajectory[]` entry (method.md section 1); `history` is read only to recover the
 * structured tool call of an entry (1.x), never as steps (0.x history holds `is_demo` demonstrations).
 *
 * Stream events: one per trajectory entry, i.e. the entry object as SWE-agent writes it
 * (`action`, `observation`, `thought`, `response`, `state`, ...), optionally with a `tool_calls`
 * array (OpenAI style) copied from the matching `history` assistant message; without it the
 * rendered `action` line is parsed instead. Each event is a complete step.
 */
import type { Action } from '../core/types.js';
import { ACI_COMMANDS, aciAction, aciToolName } from './aci-commands.js';
import { arr, isRecord, jsonValue, str, toolCall, typeName, type Rec } from './json-helpers.js';
import { renderedToolArgs } from './shell-split.js';
import { StepQueue } from './step-queue.js';
import { runStream } from './stream-runner.js';
import { toolCallAction } from './tool-actions.js';
import type { Diagnostic, FormatParser, ParseResult, StreamParser, TrajectoryMeta } from './types.js';
import { compact } from './step-builder.js';

const EDITOR_POSITIONAL = ['command', 'path'] as const;

/**
 * A `.traj`: a `trajectory` array beside `history` or `info`. A top-level `messages` (mini-swe-agent's
 * key) is allowed only when the entries are SWE-agent's (`action` strings): CodeR, a SWE-agent 0.x
 * variant, keeps each role's conversation there as an array of messages.
 */
function isTraj(doc: unknown): doc is Rec {
  if (!isRecord(doc) || !Array.isArray(doc.trajectory) || !('history' in doc || 'info' in doc)) return false;
  return !('messages' in doc) || doc.trajectory.some((e) => isRecord(e) && typeof e.action === 'string');
}

/** The structured tool calls of each trajectory entry, matched to history assistant messages by action text. */
function matchToolCalls(doc: Rec): Array<unknown[] | undefined> {
  const assistants = arr(doc.history).filter((m) => isRecord(m) && m.role === 'assistant' && !m.is_demo) as Rec[];
  let j = 0;
  return arr(doc.trajectory).map((e) => {
    if (!isRecord(e) || typeof e.action !== 'string' || e.action === '') return undefined;
    for (let k = j; k < assistants.length; k++) {
      const m = assistants[k]!;
      if (m.action === e.action) {
        j = k + 1;
        const calls = jsonValue(m.tool_calls);
        return Array.isArray(calls) && calls.length > 0 ? calls : undefined;
      }
    }
    return undefined;
  });
}

function entryAction(action: string, call: Rec | undefined, openFile: string | undefined, observation: string | undefined): { tool: string; args?: Rec; action: Action; id?: string } {
  if (call !== undefined) {
    const { name = '', args, id } = toolCall(call);
    return { tool: name, args, action: toolCallAction(name, args, observation), id };
  }
  const first = action.trim().split(/\s+/, 1)[0] ?? '';
  if (first === 'str_replace_editor') {
    const args = renderedToolArgs(action.trim(), EDITOR_POSITIONAL);
    return { tool: first, args, action: toolCallAction(first, args, observation) };
  }
  if (ACI_COMMANDS.has(first) || first.startsWith('exit_') || first === 'DISCUSSION' || first === '') {
    return { tool: aciToolName(action), action: aciAction(action, openFile, observation) };
  }
  return { tool: 'bash', args: { command: action.replace(/\n$/, '') }, action: { kind: 'shell', command: action.replace(/\n$/, '') } };
}

class SweAgentStream implements StreamParser {
  private queue = new StepQueue();
  private n = 0;

  push(event: unknown): ReturnType<StreamParser['push']> {
    const at = `event ${this.n++}`;
    const diagnostics: Diagnostic[] = [];
    if (!isRecord(event)) return { steps: [], diagnostics: [{ at, message: `expected a trajectory entry object, got ${typeName(event)}` }] };
    if (typeof event.action !== 'string') {
      return { steps: [], diagnostics: [{ at, message: 'trajectory entry has no `action` string; skipped' }] };
    }
    const state = jsonValue(event.state);
    const st = isRecord(state) ? state : {};
    const openFile = str(st.open_file);
    const observation = str(event.observation);
    const call = arr(event.tool_calls).find(isRecord);
    const mapped = entryAction(event.action, call, openFile === 'n/a' ? undefined : openFile, observation);
    this.queue.add(
      {
        tool: mapped.tool,
        args: mapped.args,
        toAction: () => mapped.action,
        observation,
        thought: str(event.thought) ?? str(event.response),
        cwd: str(st.working_dir),
        id: mapped.id,
      },
      { done: true },
    );
    return { steps: this.queue.drain(), diagnostics };
  }

  end(): ReturnType<StreamParser['end']> {
    return { steps: this.queue.drain(true), diagnostics: [] };
  }
}

function meta(doc: Rec): TrajectoryMeta {
  const info = isRecord(doc.info) ? doc.info : {};
  const rc = jsonValue(doc.replay_config);
  const rcr = isRecord(rc) ? rc : {};
  const agent = isRecord(rcr.agent) ? rcr.agent : {};
  const model = isRecord(agent.model) ? agent.model : {};
  const ps = isRecord(rcr.problem_statement) ? rcr.problem_statement : {};
  const env = str(doc.environment);
  const version = str(info.swe_agent_version);
  return compact<TrajectoryMeta>({
    task: str(ps.id) ?? (env !== undefined && env !== 'swe_main' ? env : undefined),
    model: str(model.name),
    agent: version === undefined ? 'swe-agent' : `swe-agent ${version}`,
    patch: str(info.submission) || undefined,
    exitStatus: str(info.exit_status),
  });
}

/** The SWE-agent `.traj` parser (1.x and 0.x). */
export const sweAgentParser: FormatParser = {
  name: 'swe-agent',
  detect: isTraj,
  events(doc) {
    if (!isTraj(doc)) return [];
    const calls = matchToolCalls(doc);
    return arr(doc.trajectory).map((e, i) => {
      const c = calls[i];
      return c !== undefined && isRecord(e) ? { ...e, tool_calls: c } : e;
    });
  },
  stream: () => new SweAgentStream(),
  parse(doc): ParseResult {
    if (!isTraj(doc)) {
      return { format: 'swe-agent', meta: {}, steps: [], diagnostics: [{ at: 'document', message: `expected a SWE-agent .traj object with a \`trajectory\` array, got ${typeName(doc)}` }] };
    }
    const r = runStream(new SweAgentStream(), sweAgentParser.events(doc));
    return { format: 'swe-agent', meta: meta(doc), ...r };
  },
};
