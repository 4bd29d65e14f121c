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

/** `count` small texts made of `parts` (deterministic): for checking a rewritten pattern against the old one. */
export function* generated(parts: string[], count: number): Generator<string> {
  let seed = 7;
  const next = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31);
  for (let i = 0; i < count; i++) {
    let text = '';
    for (let n = next() % 12; n >= 0; n--) text += parts[next() % parts.length];
    yield text;
  }
}
