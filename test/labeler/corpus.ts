/**
 * Test helpers: read real corpus trajectories and map them to normalised
 * Steps (a minimal mapping for labeler tests; the real format parsers live in src/formats).
 */
import { readFileSync } from 'node:fs';
import type { Action, Step } from '../../src/core/types.js';
import { CORPUS_DIR } from '../fixtures/corpus.js';

export const CORPUS = `${CORPUS_DIR}/`;

/** The parts of the raw logs these helpers read (the real parsers validate; these trust the corpus). */
interface ToolCall {
  id: string;
  function: { name: string; arguments: string };
}
interface ChatMessage {
  role: string;
  content?: unknown;
  tool_calls?: ToolCall[];
  tool_call_id?: string;
}
interface SweAgent11Log {
  history: ChatMessage[];
  trajectory: Array<{ action: string; observation?: string; state?: { working_dir?: string } }>;
}
type Args = Record<string, string | number | number[] | undefined>;

/** A corpus file parsed as JSON, typed as the caller says it is. */
export function readJson<T>(rel: string): T {
  return JSON.parse(readFileSync(CORPUS + rel, 'utf8')) as T;
}

function editorAction(args: Args): Action {
  const path = String(args.path ?? '');
  const range = Array.isArray(args.view_range) ? ([Number(args.view_range[0]), Number(args.view_range[1])] as [number, number]) : undefined;
  switch (args.command) {
    case 'view':
      return range && range[1] > 0 ? { kind: 'view', path, range } : { kind: 'view', path };
    case 'create':
      return { kind: 'edit', op: 'create', path, text: String(args.file_text ?? '') };
    case 'str_replace':
      return { kind: 'edit', op: 'str_replace', path, old: String(args.old_str ?? ''), new: String(args.new_str ?? '') };
    case 'insert': {
      const line = Number(args.insert_line ?? 0);
      return { kind: 'edit', op: 'insert', path, new: String(args.new_str ?? ''), range: [line, line] };
    }
    case 'undo_edit':
      return { kind: 'edit', op: 'undo', path };
    default:
      return { kind: 'other', name: String(args.command) };
  }
}

/** SWE-agent 1.1 `.traj`: one step per trajectory entry, arguments from the history's tool calls. */
export function sweAgent11Steps(rel: string): Step[] {
  const d = readJson<SweAgent11Log>(rel);
  const calls: Array<{ name: string; arguments: string }> = [];
  for (const m of d.history) if (m.role === 'assistant') for (const c of m.tool_calls ?? []) calls.push(c.function);
  let k = 0;
  return d.trajectory.map((e, t): Step => {
    const cwd = e.state?.working_dir;
    const base = { t, observation: String(e.observation ?? ''), ...(cwd ? { cwd } : {}) };
    if (String(e.action).trim() === '') return { ...base, tool: '', action: { kind: 'none' } };
    const call = calls[k++];
    if (!call) return { ...base, tool: '', action: { kind: 'none' } };
    const args = JSON.parse(call.arguments || '{}') as Args;
    if (call.name === 'bash') return { ...base, tool: 'bash', action: { kind: 'shell', command: String(args.command) } };
    if (call.name === 'submit') return { ...base, tool: 'submit', action: { kind: 'finish' } };
    return { ...base, tool: call.name, args, action: editorAction(args) };
  });
}

/** mini-swe-agent-1.1 `.traj.json`: one step per tool call, `cwd` /testbed, returncode as exit code. */
export function miniSwe11Steps(rel: string): Step[] {
  const d = readJson<{ messages: ChatMessage[] }>(rel);
  const steps: Step[] = [];
  const results = new Map<string, string>();
  for (const m of d.messages) if (m.role === 'tool') results.set(m.tool_call_id ?? '', typeof m.content === 'string' ? m.content : JSON.stringify(m.content));
  for (const m of d.messages) {
    if (m.role !== 'assistant') continue;
    for (const c of m.tool_calls ?? []) {
      const args = JSON.parse(c.function.arguments || '{}') as Args;
      const obs = results.get(c.id) ?? '';
      const rc = /<returncode>(-?\d+)<\/returncode>/.exec(obs);
      steps.push({
        t: steps.length,
        tool: c.function.name,
        cwd: '/testbed',
        observation: obs,
        ...(rc ? { exitCode: Number(rc[1]) } : {}),
        action: { kind: 'shell', command: String(args.command ?? '') },
      });
    }
  }
  return steps;
}
