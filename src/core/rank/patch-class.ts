/**
 * What the vote needs of a final patch (vote.ts), without the patch: its class key, so that a live session, which
 * keeps no step text, can take part in a vote from the diff its driver sends with `end` (issue 26 item 3). Two
 * patches are in one class when their normalised source lines (final-patch.ts) are the same list.
 */
import { createHash, type Hash } from 'node:crypto';
import { err, ok, type Result } from '../../errors.js';
import { diffWalk, walkDiffTo } from '../evidence/patch.js';
import { NetLines, sourceLines } from './final-patch.js';

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
 * Most characters of normalised lines a diff's class is hashed from **(choice, T55)**. Each line carries its file's
 * path and a line repeated counts once per copy, so a 512 Ki-character diff of one long path and short lines came to
 * gigabytes (seconds of hashing, or no string at all); the corpus's largest submitted diff comes to ~11 K.
 */
export const MAX_CLASS_CHARS = 16 * 1024 * 1024;

/** A diff read into its class a slice at a time, so that a caller can give its event loop back between slices. */
export interface PatchReading {
  /** Reads on about `chars` characters (of the diff, then of the lines hashed); true once the class is known. */
  step(chars: number): boolean;
  /** The class, or what is wrong with the text (once `step` returned true). */
  result(): Result<PatchClass, string>;
}

const NO_HEADER = "holds no 'diff --git' header: send the output of git diff (an empty string: no change)";

/**
 * The class of a unified diff's text (what `git diff` prints; '' or blank: no change), or an error naming what is
 * wrong with it: text that is not blank but holds no `diff --git` header is not read as no change.
 */
export function diffClass(text: string): Result<PatchClass, string> {
  const reading = readPatch(text);
  while (!reading.step(Number.POSITIVE_INFINITY));
  return reading.result();
}

/** {@link diffClass} in slices: the same class, the same errors, and one more past {@link MAX_CLASS_CHARS}. */
export function readPatch(text: string): PatchReading {
  if (text.trim() === '') return settled(ok(patchClass([])));
  const at = text.indexOf('diff --git ');
  if (at < 0) return settled(err(NO_HEADER));
  const net = new NetLines();
  const walk = diffWalk(at);
  const visitor = sourceLines(net);
  let hash: ClassHash | undefined;
  let outcome: Result<PatchClass, string> | undefined;
  return {
    step(chars) {
      if (outcome !== undefined) return true;
      if (hash === undefined) {
        const from = walk.p;
        if (!walkDiffTo(text, walk, from + chars, visitor)) return false;
        const made = classHash(net);
        if (!made.ok) {
          outcome = made;
          return true;
        }
        hash = made.value;
        chars -= walk.p - from; // what is left of the slice goes to the hash (a small patch: all of it in one step)
      }
      if (chars > 0 && hash.feed(chars)) outcome = ok(hash.value());
      return outcome !== undefined;
    },
    result: () => outcome ?? err('not read yet'),
  };
}

const settled = (outcome: Result<PatchClass, string>): PatchReading => ({ step: () => true, result: () => outcome });

/** The class of `net`'s lines in one go (a trajectory's final patch: FinalPatchTracker.net()), or why it has none. */
export function netClass(net: NetLines): Result<PatchClass, string> {
  const made = classHash(net);
  if (!made.ok) return made;
  made.value.feed(Number.POSITIVE_INFINITY);
  return ok(made.value.value());
}

interface ClassHash {
  /** Hashes about `chars` more characters; true once every line is in. */
  feed(chars: number): boolean;
  value(): PatchClass;
}

/** The hash `patchClass` makes of the sorted lines, fed from each distinct line and its count (no list of copies). */
function classHash(net: NetLines): Result<ClassHash, string> {
  const { lines, chars } = net.size();
  if (chars > MAX_CLASS_CHARS) return err(`its normalised source lines come to ${chars} characters (each with its file's path), over the ${MAX_CLASS_CHARS} a class is read from`);
  const sorted = net.counted();
  const hash: Hash = createHash('sha256');
  let i = 0;
  let left = sorted[0]?.[1] ?? 0;
  let first = true;
  return ok({
    feed(budget) {
      while (i < sorted.length && budget > 0) {
        const item = sorted[i]![0];
        const k = first ? 1 : Math.min(left, Math.max(1, Math.floor(budget / (item.length + 1))));
        hash.update(first ? item : `\n${item}`.repeat(k)); // whole lines only: the UTF-8 bytes are the joined list's
        first = false;
        left -= k;
        budget -= k * (item.length + 1);
        if (left === 0 && ++i < sorted.length) left = sorted[i]![1];
      }
      return i >= sorted.length;
    },
    value: () => ({ key: lines === 0 ? null : hash.digest('hex'), lines }),
  });
}
