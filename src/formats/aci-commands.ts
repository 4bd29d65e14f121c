/**
 * SWE-agent 0.x ACI commands (`open`, `goto`, `scroll_up`, `scroll_down`, `edit a:b ... end_of_edit`,
 * `create`, `search_dir`, `search_file`, `find_file`, `submit`, `exit_*`) onto normalised actions.
 * The open file comes from the 0.x `state` (the state shown before the action) and the observation's
 * `[File: path (N lines total)]` window header, whose numbered lines give the visible range.
 */
import type { Action, LineRange } from '../core/types.js';
import { shellSplit } from './shell-split.js';

/** ACI command names this module knows (the first word of the action). */
export const ACI_COMMANDS: ReadonlySet<string> = new Set(['open', 'goto', 'scroll_up', 'scroll_down', 'edit', 'create', 'search_dir', 'search_file', 'find_file', 'submit']);

/** The file named in an ACI window header, if the observation starts with one. */
export function windowFile(observation: string | undefined): string | undefined {
  const m = observation === undefined ? null : /^\[File: (.+?) \(\d+ lines total\)\]/.exec(observation.slice(0, 4096));
  return m?.[1];
}

/** The first and last numbered lines (`134:...`) of an ACI window. */
export function windowRange(observation: string | undefined): LineRange | undefined {
  if (windowFile(observation) === undefined || observation === undefined) return undefined;
  let first: number | undefined;
  let last: number | undefined;
  for (const m of observation.matchAll(/^(\d+):/gm)) {
    const n = Number(m[1]);
    first ??= n;
    last = n;
  }
  return first === undefined || last === undefined ? undefined : [first, Math.max(first, last)];
}

/** The tool name of an ACI action line: its first word, `none` for a discussion-only turn. */
export function aciToolName(action: string): string {
  const first = action.trim().split(/\s+/, 1)[0] ?? '';
  if (first === 'DISCUSSION' || first === '') return '';
  if (ACI_COMMANDS.has(first) || first.startsWith('exit_')) return first;
  return 'bash';
}

/** Maps one 0.x action line onto an Action, given the open file before it and its observation. */
export function aciAction(action: string, openFile: string | undefined, observation: string | undefined): Action {
  // trimEnd, not replace(/\s+$/): the regex retried a blank run ending mid-text from each of its blanks (a 160 KB
  // edit of spaces held the event loop 11.6 s).
  const text = action.trimEnd();
  const firstLine = text.split('\n', 1)[0] ?? '';
  const words = shellSplit(firstLine);
  const cmd = words[0] ?? '';
  const shown = windowFile(observation);
  switch (cmd) {
    case '':
    case 'DISCUSSION':
      return { kind: 'none' };
    case 'open':
      return { kind: 'view', path: shown ?? words[1] ?? '', range: windowRange(observation) };
    case 'goto':
    case 'scroll_up':
    case 'scroll_down': {
      const path = shown ?? openFile;
      return path === undefined ? { kind: 'other', name: cmd } : { kind: 'view', path, range: windowRange(observation) };
    }
    case 'edit': {
      // Only a text that ends with end_of_edit is tried: on one that does not, the regex retried every split of a run
      // of blank lines after the range (quadratic). On one that does, the lazy body always reaches that end_of_edit, so
      // the first split of the blanks matches and no other is tried (64 MiB of blanks, newlines, digits: 55-62 ms).
      // eslint-disable-next-line regexp/no-super-linear-backtracking -- linear behind the endsWith guard (measured to 64 MiB)
      const m = text.endsWith('end_of_edit') ? /^edit\s+(\d+):(\d+)\s*\n([\s\S]*?)\n?end_of_edit\s*$/.exec(text) : null;
      const path = openFile ?? shown;
      if (m === null || path === undefined) return { kind: 'other', name: 'edit' };
      return { kind: 'edit', op: 'replace_lines', path, range: [Number(m[1]), Number(m[2])], new: m[3] ?? '' };
    }
    case 'create':
      return { kind: 'edit', op: 'create', path: words[1] ?? '', text: '' };
    case 'search_dir':
    case 'find_file':
      return { kind: 'search', query: words[1], path: words[2] };
    case 'search_file':
      return { kind: 'search', query: words[1], path: words[2] ?? openFile };
    case 'submit':
      return { kind: 'finish' };
    default:
      if (cmd.startsWith('exit_') && words.length === 1) return { kind: 'finish', text: cmd };
      return { kind: 'shell', command: text };
  }
}
