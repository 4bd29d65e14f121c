/**
 * Votes among the runs of one task on their normalised final patches (final-patch.ts; Agentless-style majority vote,
 * issue 26 item 3, docs/rank.md). A run's vote is the number of runs of the group (itself included) whose
 * normalised patch is the same as its own; a run with an empty patch changed no source and gets 0. The soft vote is
 * the mean Jaccard similarity of its set of changed lines to the other runs' (consensus.ts).
 */
import { consensusScores } from './consensus.js';

/** Each run's class size among identical non-empty patches (0 for an empty one). */
export function voteScores(patches: ReadonlyArray<readonly string[]>): number[] {
  // A changed line holds no newline (diff lines and edit lines are split on it), so joining on it is a faithful key.
  return voteByKey(patches.map((p) => (p.length === 0 ? null : p.join('\n'))));
}

/** Each run's class size among the runs with its key (patch-class.ts's `key`, or any faithful key of the patch); 0 for null (no source change). */
export function voteByKey(keys: ReadonlyArray<string | null>): number[] {
  const count = new Map<string, number>();
  for (const k of keys) if (k !== null) count.set(k, (count.get(k) ?? 0) + 1);
  return keys.map((k) => (k === null ? 0 : count.get(k)!)); // counted in the loop above
}

/** Each run's mean Jaccard similarity of its set of changed lines to every other run's (0 for an empty patch). */
export function softVoteScores(patches: ReadonlyArray<readonly string[]>): number[] {
  return consensusScores(patches.map((p) => new Set(p)));
}
