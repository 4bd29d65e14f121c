/**
 * What the vote needs of a final patch (vote.ts), without the patch: its class key, so that a live session, which
 * keeps no step text, can take part in a vote from the diff its driver sends with `end` (issue 26 item 3). Two
 * patches are in one class when their normalised source lines (final-patch.ts) are the same list.
 */
import { createHash } from 'node:crypto';
import { err, ok, type Result } from '../../errors.js';
import { normalisedDiff } from './final-patch.js';

export interface PatchClass {
  /** SHA-256 (hex) of the normalised source lines; null when the patch changes no source (empty, or tests, scratch scripts and notes only). */
  key: string | null;
  /** How many normalised source lines it changes (0 when `key` is null). */
  lines: number;
}

/** The class of a normalised patch (`createFinalPatchTracker().value()`, `normalisedDiff`). */
export function patchClass(lines: readonly string[]): PatchClass {
  // A changed line holds no newline (diff lines and edit lines are split on it), so joining on it is a faithful key.
  return { key: lines.length === 0 ? null : createHash('sha256').update(lines.join('\n')).digest('hex'), lines: lines.length };
}

/**
 * The class of a unified diff's text (what `git diff` prints; '' or blank: no change), or an error naming what is
 * wrong with it: text that is not blank but holds no `diff --git` header is not read as no change.
 */
export function diffClass(text: string): Result<PatchClass, string> {
  if (text.trim() === '') return ok(patchClass([]));
  const lines = normalisedDiff(text);
  if (lines === null) return err("holds no 'diff --git' header: send the output of git diff (an empty string: no change)");
  return ok(patchClass(lines));
}
