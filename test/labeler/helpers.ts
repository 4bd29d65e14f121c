import type { Action, Label, State, Step } from '../../src/core/types.js';
import { labelSteps } from '../../src/core/state-builder.js';
import { defaultAnalyzers } from '../../src/syntax/index.js';

export type StepInput = string | Action | (Partial<Step> & { action: Action });

/** A shell step (string), a bare action, or a partial step; `cwd` defaults to /testbed. */
export function toStep(input: StepInput, t: number): Step {
  if (typeof input === 'string') return { t, tool: 'bash', cwd: '/testbed', action: { kind: 'shell', command: input } };
  if ('kind' in input) return { t, tool: input.kind === 'shell' ? 'bash' : 'str_replace_editor', cwd: '/testbed', action: input };
  return { t, tool: 'tool', cwd: '/testbed', ...input };
}

export function run(inputs: StepInput[]): Array<{ label: Label; state: State }> {
  return labelSteps(inputs.map(toStep), defaultAnalyzers());
}

/** Label of the last step after the given history. */
export function last(...inputs: StepInput[]): Label {
  const out = run(inputs);
  const l = out[out.length - 1];
  if (!l) throw new Error('no steps');
  return l.label;
}

export const SRC_EDIT: Action = { kind: 'edit', op: 'str_replace', path: '/testbed/moto/scheduler/models.py', old: 'a', new: 'b' };

/**
 * Uniform 32-bit draws from `seed` (mulberry32). The LCG these tests used before, `(seed * 1103515245 + 12345) %
 * 2 ** 31` in doubles, lost bits past 2 ** 53 and picked pieces by its low bits: with 16 parts it cycled through a
 * few of them (a test of Node's `Error:` lines saw no match at all).
 */
export function seeded(seed: number): () => number {
  let s = seed | 0;
  return () => {
    s = (s + 0x6d2b79f5) | 0;
    let t = Math.imul(s ^ (s >>> 15), 1 | s);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return (t ^ (t >>> 14)) >>> 0;
  };
}

/** `count` small texts of up to `most` pieces of `parts` (deterministic): for checking a rewritten pattern against the old one. */
export function* generated(parts: string[], count: number, most = 12, seed = 7): Generator<string> {
  const next = seeded(seed);
  for (let i = 0; i < count; i++) {
    let text = '';
    for (let n = next() % most; n >= 0; n--) text += parts[next() % parts.length];
    yield text;
  }
}
