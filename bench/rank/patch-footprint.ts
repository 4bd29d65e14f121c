/**
 * A run's final patch as a set of normalised changed lines, what the "final patch lines" consensus
 * candidate of bench/rank.ts compares (measured, not shipped: `rank --consensus` compares edit
 * locations, src/core/rank/consensus.ts). Also where the run changed source (files and scopes),
 * kept the labeler's way, to check that the shipped `locationItems` of the states equals it.
 */
import { patchRole } from '../../src/core/evidence/patch.js';
import { diffLines, editLinesOf, normaliseLine } from './patch-lines.js';
import type { Label, State, Step } from '../../src/core/types.js';

export interface Footprint {
  /** `file\0±text` for each distinct normalised changed line of a source file of the final patch. */
  patch: string[];
  /** `f:file` and `s:file::scope` of every source edit. */
  location: string[];
}

/** At most this many distinct items are kept of each kind **(choice)**: a patch past it is compared on its first lines. */
export const MAX_FOOTPRINT_ITEMS = 4096;

function capped(): { set: Set<string>; add(k: string): void } {
  const set = new Set<string>();
  return {
    set,
    add(k) {
      if (set.size < MAX_FOOTPRINT_ITEMS) set.add(k);
    },
  };
}

export interface FootprintTracker {
  add(step: Step, state: State, label: Label): void;
  value(): Footprint;
}

/**
 * The final patch is the last submitted diff (a finish step whose output holds one, as the evidence
 * trackers read it); without one, the lines of the source edits seen (old text `-`, new text `+`).
 */
export function createFootprintTracker(): FootprintTracker {
  const edited = capped();
  const location = capped();
  let submitted: string[] | undefined;
  return {
    add(step, state, label) {
      if (label.sourceEdit && label.file !== undefined) {
        location.add(`f:${label.file}`);
        if (state.scope !== undefined) location.add(`s:${state.scope}`);
        for (const line of editLinesOf(step)) edited.add(`${label.file}\0${line}`);
      }
      if (state.kind === 'finish' && step.observation !== undefined) {
        const lines = diffLines(step.observation);
        if (lines !== null) {
          const items = capped();
          for (const l of lines) {
            const text = normaliseLine(l.text);
            if (text !== '' && patchRole(l.file, l.created) === 'source') items.add(`${l.file}\0${l.sign}${text}`);
          }
          submitted = [...items.set];
        }
      }
    },
    value() {
      return { patch: submitted ?? [...edited.set], location: [...location.set] };
    },
  };
}
