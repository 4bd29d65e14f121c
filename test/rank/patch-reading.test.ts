/**
 * An end's patch read into its class a slice at a time (T55, src/core/rank/patch-class.ts `readPatch`): the class
 * the list of normalised lines gives, whatever the slices, and a refusal, made without the lines, when those lines
 * (each with its file's path, a repeated line once per copy) come to more than MAX_CLASS_CHARS.
 */
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { walkDiff } from '../../src/core/evidence/patch.js';
import { commentStyle, normaliseCodeLine } from '../../src/core/rank/final-patch.js';
import { diffClass, MAX_CLASS_CHARS, readPatch } from '../../src/core/rank/patch-class.js';
import { patchRole } from '../../src/core/evidence/patch.js';

/** The class as the list made it before T55: flat `file\0text` keys, every copy of a line in a sorted list, joined. */
function listClass(text: string): { key: string | null; lines: number } {
  const files: Array<{ path: string; created: boolean; lines: Array<['+' | '-', string]> }> = [];
  walkDiff(text, text.indexOf('diff --git '), {
    file: (path) => void files.push({ path, created: false, lines: [] }),
    created: () => void (files.at(-1)!.created = true),
    line: (sign, t, from, to) => void files.at(-1)!.lines.push([sign, t.slice(from, to)]),
  });
  const net = new Map<string, number>();
  for (const f of files) {
    if (patchRole(f.path, f.created) !== 'source') continue;
    for (const [sign, raw] of f.lines) {
      const t = normaliseCodeLine(raw, commentStyle(f.path));
      if (t === '') continue;
      const key = `${f.path}\0${t}`;
      if (!net.has(key) && net.size >= 4096) continue;
      net.set(key, (net.get(key) ?? 0) + (sign === '+' ? 1 : -1));
    }
  }
  const out: string[] = [];
  for (const [key, n] of net) {
    const at = key.indexOf('\0');
    for (let k = 0; k < Math.abs(n); k++) out.push(`${key.slice(0, at)}\0${n > 0 ? '+' : '-'}${key.slice(at + 1)}`);
  }
  out.sort();
  return { key: out.length === 0 ? null : createHash('sha256').update(out.join('\n')).digest('hex'), lines: out.length };
}

const block = (path: string, lines: string[], created = false) =>
  `diff --git a/${path} b/${path}\n${created ? 'new file mode 100644\n' : ''}--- a/${path}\n+++ b/${path}\n@@ -1,9 +1,9 @@\n${lines.join('\n')}\n`;

const DIFFS: Record<string, string> = {
  'one line repeated 40,000 times': block(
    'pkg/mod.py',
    Array.from({ length: 40_000 }, () => '+x'),
  ),
  'files out of order, a line removed and added again': block('z/b.py', ['-  y = 2', '+y=2', '+return "q"  # note']) + block('a/a.js', ['+f(a,  b); // c', '-}', '+}', '+}']),
  'a test file, a new file at the root, unicode and a lone surrogate':
    block('tests/test_x.py', ['+assert 1']) + block('new.py', ['+x'], true) + block('src/é.py', ['+é = "\ud800"', '-\ud83d\ude00', '+\ud83d\ude00', '+\ud83d\ude00']),
  'a path holding a NUL, beside one without': block('p\0q.py', ['+x', '+q\0x', '-y']) + block('p.py', ['+q\0x', '+x']),
  'more than 4,096 distinct lines': block(
    'm.py',
    Array.from({ length: 5_000 }, (_, i) => `+v${i % 4_500} = ${i}`),
  ),
};

describe('readPatch', () => {
  for (const [name, text] of Object.entries(DIFFS)) {
    it(`gives the list's class in slices of any size: ${name}`, () => {
      const want = listClass(text);
      expect(want.lines).toBeGreaterThan(0);
      expect(diffClass(text)).toEqual({ ok: true, value: want });
      for (const chars of [1, 7, 4096]) {
        const reading = readPatch(text);
        let turns = 1;
        while (!reading.step(chars)) turns += 1;
        expect(reading.result(), `${chars} a slice`).toEqual({ ok: true, value: want });
        if (chars === 1) expect(turns).toBeGreaterThan(3); // a line or so a slice
      }
    });
  }

  it('refuses a diff whose lines come past MAX_CLASS_CHARS with their paths, without making them', () => {
    // 512 Ki characters: one path of 10,000 characters, then '+x' lines. As a list: 1.7 G characters, more than a
    // string holds (the end threw RangeError after seconds); with a 1,000-character path, 176 M characters hashed.
    for (const length of [1_000, 10_000]) {
      const path = `src/${'p'.repeat(length)}.py`;
      const head = `diff --git a/${path} b/${path}\n@@ -1 +1 @@\n`;
      const text = head + '+x\n'.repeat(Math.floor((512 * 1024 - head.length) / 3));
      const read = diffClass(text);
      expect(read.ok).toBe(false);
      if (!read.ok) expect(read.error).toMatch(new RegExp(`come to \\d+ characters .* over the ${MAX_CLASS_CHARS}`));
      const reading = readPatch(text);
      while (!reading.step(32 * 1024));
      expect(reading.result()).toEqual(read);
    }
  });

  it('reads blank text and text without a diff header at once, as diffClass does', () => {
    expect(readPatch(' \n').step(1)).toBe(true);
    expect(readPatch('').result()).toEqual({ ok: true, value: { key: null, lines: 0 } });
    expect(readPatch('no diff here').result()).toEqual(diffClass('no diff here'));
    expect(diffClass('no diff here').ok).toBe(false);
  });
});
