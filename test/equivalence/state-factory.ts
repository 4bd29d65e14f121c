import type { State } from '../../src/core/types.js';

/** A hand-built state for formula tests: distinct hash per call unless given. */
let counter = 0;
export function makeState(over: Partial<State> = {}): State {
  counter++;
  return {
    t: 0,
    stage: 'E',
    kind: 'read',
    tool: 'bash',
    hash: `h${counter}`,
    tokens: [],
    command: false,
    changesFile: false,
    failed: false,
    cost: 1,
    unknown: false,
    ...over,
  };
}

/** A terminal-command state whose tokens are the sorted distinct whitespace tokens of `command`. */
export function commandState(command: string, over: Partial<State> = {}): State {
  const tokens = [...new Set(command.split(/\s+/).filter((x) => x !== ''))].sort();
  return makeState({ kind: 'run_other', command: true, tokens, ...over });
}
