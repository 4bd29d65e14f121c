/**
 * Codex CLI's tools as Harbor's ATIF export passes them through (its converter keeps Codex's own names):
 * `exec_command` (`cmd`), `shell_command` (`command`), `shell` with an argument vector
 * (`["bash", "-lc", "..."]`) and `apply_patch` (`input`: Codex's own patch format, `*** Begin Patch`).
 * Without this every command of such a run was kind `other` (or a shell step with an empty command).
 */
import type { Action } from '../core/types.js';
import { str, type Rec } from './json-helpers.js';

const SHELLS = new Set(['bash', 'sh', 'zsh', '/bin/bash', '/bin/sh', '/usr/bin/bash', '/usr/bin/zsh']);

/** The command line of a shell tool call: a string as it is; an argument vector as the script a shell runs (`bash -lc SCRIPT`), else joined by spaces. */
export function shellCommandText(args: Rec): string {
  for (const given of [args.command, args.cmd]) {
    if (typeof given === 'string') return given;
    if (Array.isArray(given) && given.length > 0 && given.every((a): a is string => typeof a === 'string')) {
      const [shell, flag, script] = given;
      return given.length === 3 && SHELLS.has(shell!) && /^-[a-z]*c$/.test(flag!) ? script! : given.join(' ');
    }
  }
  return str(args.raw) ?? '';
}

/**
 * An `apply_patch` call as one edit: the first file the patch names (an `Add File` is a create with its `+` lines, an
 * `Update File` a replacement of its first hunk: context and `-` lines by context and `+` lines). A patch of several
 * files or hunks is read by its first: one tool call is one step. No file named: `other`.
 */
export function applyPatchAction(args: Rec): Action {
  const patch = str(args.input) ?? str(args.patch) ?? str(args.command) ?? '';
  const lines = patch.split('\n');
  const at = lines.findIndex((l) => /^\*\*\* (Add|Update|Delete) File: /.test(l));
  if (at < 0) return { kind: 'other', name: 'apply_patch' };
  const [, op, file] = /^\*\*\* (Add|Update|Delete) File: (.*)$/.exec(lines[at]!)!;
  const path = file!.trim();
  const body: string[] = [];
  for (const l of lines.slice(at + 1)) {
    if (l.startsWith('*** ')) break;
    body.push(l);
  }
  if (op === 'Add') return { kind: 'edit', op: 'create', path, text: body.map((l) => l.replace(/^\+/, '')).join('\n') };
  if (op === 'Delete') return { kind: 'other', name: 'apply_patch' };
  const hunk: string[] = [];
  for (const l of body) {
    if (l.startsWith('@@')) {
      if (hunk.length > 0) break;
      continue;
    }
    hunk.push(l);
  }
  const side = (drop: string) => hunk.filter((l) => !l.startsWith(drop)).map((l) => l.slice(1));
  return { kind: 'edit', op: 'str_replace', path, old: side('+').join('\n'), new: side('-').join('\n') };
}
