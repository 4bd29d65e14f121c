/** The one interface of a waste category's detector, and the item every detector reports. */
import type { WasteSettings } from '../config.js';
import { runToEnd } from '../in-steps.js';
import type { State, WasteCategory, WasteItem } from '../types.js';
import type { WasteHistory } from './history.js';

/** States by step index: `get` as a `ReadonlyMap`'s (a map is one). */
export interface StateLookup {
  get(t: number): State | undefined;
}

/** What a detector is given besides the states. */
export interface WasteContext {
  settings: WasteSettings;
  /** Equivalence threshold of the scoring config. */
  tau: number;
  /** The PTA's touched files; undefined = reference-free mode. */
  ptaFiles?: readonly string[];
  /** The set of `ptaFiles`, when the caller keeps one (irrelevant.ts's `ptaFileSet`); made from the list otherwise. */
  ptaFileSet?: ReadonlySet<string>;
  /** The states by step index. */
  byT: StateLookup;
  /** Items the detectors before this one found (the redundant-step detector leaves blind retries to theirs). */
  found: readonly WasteItem[];
  /** What the stop counters found over the same states (history.ts): read instead of searched again. */
  history?: WasteHistory;
}

/** Finds one category's waste in a whole state sequence, deterministically (see index.ts for the item convention). */
export interface WasteDetector {
  category: WasteCategory;
  find(states: readonly State[], context: WasteContext): WasteItem[];
  /** {@link find} in steps: it yields every `STATES_PER_STEP` states (or items) it visits (in-steps.ts), with the same items at the end. */
  findInSteps(states: readonly State[], context: WasteContext): Generator<void, WasteItem[]>;
}

/** A detector of `category` from its search in steps: `find` runs it in one go. */
export function wasteDetector(category: WasteCategory, findInSteps: WasteDetector['findInSteps']): WasteDetector {
  return { category, find: (states, context) => runToEnd(findInSteps(states, context)), findInSteps };
}

/** An item of `category` over `steps` whose last `wasted` are wasted: tool of the first wasted step, tokens of all wasted ones. */
export function wasteItem(category: WasteCategory, steps: number[], wasted: number, byT: StateLookup): WasteItem {
  const wastedSteps = steps.slice(steps.length - wasted);
  let tokens = 0;
  for (const t of wastedSteps) tokens += byT.get(t)?.cost ?? 0;
  const first = wastedSteps[0];
  const state = first === undefined ? undefined : byT.get(first);
  const tool = state === undefined ? '' : state.tool || state.kind;
  return { category, steps, tool, wastedSteps: wasted, wastedTokens: tokens };
}
