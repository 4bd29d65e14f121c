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

/**
 * Characters of a step's long text (a code cell, a message) read for its line at first: the line's scan stops within
 * them unless whitespace runs are long, and then {@link stepText} reads four times as many, and so on.
 */
export const FIRST_READ = 1024;

/** `text`, or its first `limit` characters (a slice of a flat string: nothing copied). */
const upTo = (text: string, limit: number): string => (text.length > limit ? text.slice(0, limit) : text);

/**
 * What the step did, its text cut to `limit` characters: a prefix joined to a whole 1 MB text (`python: ${code}`)
 * was flattened, a copy of the whole text, for a line of 100 characters (T105).
 */
function what(step: Step, limit: number): string {
  const a = step.action;
  switch (a.kind) {
    case 'shell':
      return a.command;
    case 'code':
      return `${a.language}: ${upTo(a.code, limit)}`;
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
      return a.text !== undefined && a.text !== '' ? `${a.kind}: ${upTo(a.text, limit)}` : a.kind;
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
  const long = longTextLength(step);
  for (let limit = FIRST_READ; ; limit *= 4) {
    const line = lineOf(what(step, limit), long > limit);
    if (line !== undefined) return line;
  }
}

/** Length of the text {@link what} may cut (a code cell's, a message's), else 0. */
function longTextLength(step: Step): number {
  const a = step.action;
  if (a.kind === 'code') return a.code.length;
  return (a.kind === 'think' || a.kind === 'finish' || a.kind === 'message') && a.text !== undefined ? a.text.length : 0;
}

/**
 * The line of `text`, or undefined when `text` was `cut` and its scan reached its end with the line still open (the
 * whole text's line could then differ). A cut text whose scan stops before its end gives the whole text's line: the
 * scan never looks past where it stops.
 */
function lineOf(text: string, cut: boolean): string | undefined {
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
  if (cut && end === text.length && kept <= STEP_TEXT_MAX) return undefined;
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
