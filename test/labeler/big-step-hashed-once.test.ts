/**
 * A 1 MB step's text past MAX_NORMALIZED_CHARS is hashed as written (T14), and was hashed twice: once for the state
 * hash, once more for the exact form the variant check keys on (an edit's whole text JSON-encoded, then hashed). Now
 * the rest's digest is taken once a step and shared (T105). Counted in characters handed to `crypto.hash`, never
 * timed. Real texts are within the bound, so their hashes and exact forms are what they were.
 */
import { createRequire, syncBuiltinESMExports } from 'node:module';
import type * as Crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createStateBuilder } from '../../src/core/state-builder.js';
import type { Action, Step } from '../../src/core/types.js';
import { MAX_NORMALIZED_CHARS, headLength, restDigest } from '../../src/core/state/normalize.js';
import { exactAction } from '../../src/core/state/variant.js';
import { defaultAnalyzers } from '../../src/syntax/index.js';
import { corpusRuns } from '../fixtures/corpus-runs.js';

const analyzers = defaultAnalyzers();

// `crypto.hash` wrapped for this file: the builtin's ESM exports follow its CommonJS object once synced, so
// normalize.ts's import sees the wrapper however the modules were loaded (a `vi.mock` does not reach a module
// another file of the same worker imported first).
const crypto = createRequire(import.meta.url)('node:crypto') as typeof Crypto;
const realHash = crypto.hash;
const count = { chars: 0 };
beforeAll(() => {
  crypto.hash = ((algorithm: string, data: string, encoding?: 'hex') => {
    count.chars += data.length;
    return realHash(algorithm, data, encoding);
  }) as typeof realHash;
  syncBuiltinESMExports();
});
afterAll(() => {
  crypto.hash = realHash;
  syncBuiltinESMExports();
});

const N = 1_000_000;
const fill = (unit: string, n = N): string => unit.repeat(Math.ceil(n / unit.length)).slice(0, n);
const step = (action: Action, tool = 'bash'): Step => ({ t: 0, tool, action, observation: 'ok' });
const rest = (text: string): number => text.length - headLength(text);
/**
 * Characters a step may hash for its long texts: each one's rest once, and its head in the state's content and in the
 * exact form (JSON-encoded for an edit: a newline written as two characters), with their digests and prefixes.
 */
const once = (...texts: string[]): number => texts.reduce((n, t) => n + rest(t) + 3 * headLength(t), 4096);

/** Characters hashed while one fresh session labels `s`. */
function hashedFor(s: Step): number {
  const builder = createStateBuilder(analyzers);
  count.chars = 0;
  builder.next(s);
  return count.chars;
}

describe('a 1 MB step hashes the rest of each long text once', () => {
  it('a shell command and a code cell', () => {
    for (const command of [fill('echo a && '), fill('cat a | grep b | '), `cat > f.py <<'EOF'\n${fill('x = 1\n')}\nEOF`]) {
      const hashed = hashedFor(step({ kind: 'shell', command }));
      expect(hashed).toBeGreaterThanOrEqual(rest(command));
      expect(hashed).toBeLessThanOrEqual(once(command));
    }
    const code = fill('def f(x):\n    return x\n');
    const hashed = hashedFor(step({ kind: 'code', language: 'python', code }, 'ipython'));
    expect(hashed).toBeLessThanOrEqual(once(code));
  });

  it("an edit's texts: no second pass over the whole text for its exact form", () => {
    const text = fill('def f(x):\n    return x\n');
    const create = hashedFor(step({ kind: 'edit', op: 'create', path: 'big.py', text }, 'str_replace_editor'));
    expect(create).toBeGreaterThanOrEqual(rest(text));
    expect(create).toBeLessThanOrEqual(once(text));
    const [old, neu] = [fill('a = 1\n', N / 2), fill('b = 2\n', N / 2)];
    const replace = hashedFor(step({ kind: 'edit', op: 'str_replace', path: 'big.py', old, new: neu }, 'str_replace_editor'));
    expect(replace).toBeLessThanOrEqual(once(old, neu));
  });

  it('keeps no text past its step: the next step with the same text hashes its rest again', () => {
    const command = fill('echo a && ');
    const builder = createStateBuilder(analyzers);
    builder.next(step({ kind: 'shell', command }));
    count.chars = 0;
    restDigest(command, headLength(command));
    expect(count.chars).toBe(rest(command));
  });
});

describe('the exact form of a long edit text tells texts apart as the whole text did', () => {
  const text = fill('def f(x):\n    return x\n');
  const edit = (t: string): Step => step({ kind: 'edit', op: 'create', path: 'big.py', text: t }, 'str_replace_editor');
  it('a repeat is a repeat, a re-indented head a variant, a changed tail another state', () => {
    const builder = createStateBuilder(analyzers);
    // Re-indented in place (same length: a longer head would move the rest's start, and so the hash).
    const states = [text, `${text}`, text.replace('    return', '\t   return'), `${text.slice(0, -1)}y`].map((t) => builder.next(edit(t)).state);
    expect(states.map((s) => s.variant === true)).toEqual([false, false, true, false]);
    expect(states[1]!.hash).toBe(states[0]!.hash);
    expect(states[2]!.hash).toBe(states[0]!.hash);
    expect(states[3]!.hash).not.toBe(states[0]!.hash);
    // Only past the head's bound: a change there makes the exact form differ.
    const tailSpaced = `${text.slice(0, -20)}  ${text.slice(-20)}`;
    const a = exactAction({ kind: 'edit', op: 'create', path: 'big.py', text }, 'x', 'big.py', '.', undefined);
    const b = exactAction({ kind: 'edit', op: 'create', path: 'big.py', text: tailSpaced }, 'x', 'big.py', '.', undefined);
    expect(a).not.toBe(b);
    expect(a!.length).toBeLessThanOrEqual(2 * MAX_NORMALIZED_CHARS + 256);
  });

  it('every edit of the corpus keeps the exact form it had (its texts as written, JSON-encoded)', () => {
    let edits = 0;
    for (const run of corpusRuns())
      for (const s of run.steps) {
        const a = s.action;
        if (a.kind !== 'edit') continue;
        edits++;
        const was = JSON.stringify([a.path, a.op, a.range ?? null, a.old ?? null, a.new ?? null, a.text ?? null]);
        expect(exactAction(a, s.tool, undefined, '.', undefined)).toBe(was);
      }
    expect(edits).toBeGreaterThan(100);
  });
});
