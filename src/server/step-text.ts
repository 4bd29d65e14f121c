/**
 * One short line that says what a step did (the command, the file viewed or
 * edited, the query), for the web view's hover and step table. Sessions keep
 * one per step, so it is short, flat (no slice of a long command kept alive) and
 * pooled (rollouts of one task repeat their commands: one copy serves them all).
 */
import type { Step } from '../core/types.js';
import { intern } from '../core/memory/flat-string.js';

/** Longest kept line, in characters. */
export const STEP_TEXT_MAX = 100;

function what(step: Step): string {
  const a = step.action;
  switch (a.kind) {
    case 'shell':
      return a.command;
    case 'code':
      return `${a.language}: ${a.code}`;
    case 'view':
      return a.range ? `view ${a.path} ${a.range[0]}-${a.range[1]}` : `view ${a.path}`;
    case 'edit':
      return `${a.op} ${a.path}`;
    case 'search':
      return ['search', a.query, a.path].filter((x) => x !== undefined && x !== '').join(' ');
    case 'list':
      return a.path !== undefined ? `list ${a.path}` : 'list';
    case 'think':
    case 'finish':
    case 'message':
      return a.text !== undefined && a.text !== '' ? `${a.kind}: ${a.text}` : a.kind;
    case 'none':
      return '(no action)';
    case 'other':
      return a.name;
  }
}

const isSpace = (c: number): boolean => c === 32 || (c >= 9 && c <= 13);

/**
 * The step's line: whitespace runs collapsed to one space, cut to {@link STEP_TEXT_MAX} characters
 * ending in `...` (ASCII: one non-Latin-1 character would double the bytes V8 keeps for the whole
 * string). Reads only as far as the line needs: a regex over a whole heredoc would cost as much as
 * scoring the step. Most lines need no collapsing (single spaces between words): those are a slice.
 */
export function stepText(step: Step): string {
  const text = what(step);
  // The shortest prefix that holds the whole line, or one character more than fits (collapsed length in `kept`);
  // `plain` while every whitespace character in it is a lone ' ' between two others (the prefix is its own line).
  let end = 0;
  let kept = 0;
  let gap = false;
  let plain = true;
  while (end < text.length && kept <= STEP_TEXT_MAX) {
    const c = text.charCodeAt(end++);
    if (isSpace(c)) {
      if (c !== 32 || gap || kept === 0) plain = false;
      gap = kept > 0;
    } else {
      kept += gap ? 2 : 1;
      gap = false;
    }
  }
  const one = plain && !gap ? (end === text.length ? text : text.slice(0, end)) : collapse(text, end);
  return intern(one.length > STEP_TEXT_MAX ? `${one.slice(0, STEP_TEXT_MAX - 3)}...` : one);
}

/** Room for a collapsed prefix: at most STEP_TEXT_MAX + 2 characters (a space and a character past the limit). */
const codes = new Uint16Array(STEP_TEXT_MAX + 2);

/**
 * `text.slice(0, end)` with its whitespace runs as one space and none at either end, made in one pass into one flat
 * string, instead of a slice and two `replace` passes (`stepText` 0.77 → 0.66 µs a step over the held-out run;
 * bench/README.md, "Lifecycle CPU per step, third pass"). `end` is where {@link stepText}'s scan stopped, so the
 * collapsed prefix is at most STEP_TEXT_MAX + 2 characters (its scan's `kept`).
 */
function collapse(text: string, end: number): string {
  let n = 0;
  let gap = false;
  for (let i = 0; i < end; i++) {
    const c = text.charCodeAt(i);
    if (isSpace(c)) gap = n > 0;
    else {
      if (gap) codes[n++] = 32;
      codes[n++] = c;
      gap = false;
    }
  }
  return String.fromCharCode.apply(null, codes.subarray(0, n) as unknown as number[]);
}
