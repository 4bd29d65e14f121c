/** Hand-made scorer states for unit tests. */
import type { Stage, State } from '../../src/core/types.js';

/** A state at `t` with the given stage; unique hash `h<t>` unless overridden. */
export function st(t: number, stage: Stage, over: Partial<State> = {}): State {
  return {
    t,
    stage,
    kind: stage === 'I' ? 'edit' : stage === 'V' ? 'run_test' : stage === 'O' ? 'think' : 'read',
    tool: 'bash',
    hash: `h${t}`,
    tokens: [],
    command: false,
    changesFile: false,
    failed: false,
    cost: 10,
    unknown: false,
    ...over,
  };
}

/** States from a stage string ("EEIV"), each with a unique hash. */
export function fromStages(stages: string): State[] {
  return [...stages].map((c, t) => st(t, c as Stage));
}
