/**
 * One short line that says what a step did (the command, the file viewed or
 * edited, the query), for the web view's hover and step table. Sessions keep
 * one per step, so it is short, flat (no slice of a long command kept alive) and
 * pooled (rollouts of one task repeat their commands: one copy serves them all).
 */
import type { Step } from '../core/types.js';
import { intern } from '../core/state/flat-string.js';

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

/**
 * The step's line: whitespace runs collapsed, cut to {@link STEP_TEXT_MAX} characters ending in `...`
 * (ASCII: one non-Latin-1 character would double the bytes V8 keeps for the whole string).
 */
export function stepText(step: Step): string {
  const one = what(step).slice(0, STEP_TEXT_MAX * 8).replace(/\s+/g, ' ').trim();
  return intern(one.length > STEP_TEXT_MAX ? `${one.slice(0, STEP_TEXT_MAX - 3)}...` : one);
}
