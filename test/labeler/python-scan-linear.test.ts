/**
 * `Path(P).write_text(...)` and `var.write_bytes(...)` in Python text: the variable alternative is tried from the
 * start of a word only, so that a long identifier-like run (a hex literal) no longer makes the scan quadratic.
 * The methods found are the old pattern's, on every real corpus text and on small generated texts.
 */
import { describe, expect, it } from 'vitest';
import { pythonScan } from '../../src/core/labeler/python-writes.js';
import { corpusActionTexts } from '../fixtures/corpus-runs.js';
import { generated } from './helpers.js';

const STR = String.raw`[rRuUbBfF]{0,2}(?:'([^'\\\n]*)'|"([^"\\\n]*)")`;
/** The pattern before the fix. */
const OLD = new RegExp(String.raw`(?:(?:pathlib\.)?Path\(\s*${STR}\s*\)|([A-Za-z_]\w*))\.(write_text|write_bytes|read_text|read_bytes)\(`, 'g');

/** The methods `pythonScan` reported with the old pattern (its plausible-path filter copied). */
function oldMethods(code: string) {
  if (!code.includes('_text(') && !code.includes('_bytes(')) return [];
  const plausible = (p: string) => p.length > 0 && p.length < 300 && !/\s/.test(p) && (p.includes('/') || /\.\w+$/.test(p) || /^[A-Z][A-Z_]+$/.test(p));
  const out: Array<{ path: string | undefined; variable: string | undefined; write: boolean }> = [];
  for (const m of code.matchAll(OLD)) {
    const path = m[1] ?? m[2];
    const write = (m[4] ?? '').startsWith('write');
    if (path !== undefined) {
      if (plausible(path)) out.push({ path, variable: undefined, write });
    } else if (m[3] !== undefined) out.push({ path: undefined, variable: m[3], write });
  }
  return out;
}

describe('Path method calls in Python text', () => {
  it('finds what the old pattern found, on every corpus text', () => {
    for (const text of corpusActionTexts().flat()) expect(pythonScan(text).methods, text.slice(0, 200)).toEqual(oldMethods(text));
  });

  it('finds what the old pattern found, on generated texts', () => {
    const parts = ['Path(', 'pathlib.', "'a.py'", ')', '.', 'write_text(', 'read_bytes(', 'x', 'self', '1', '_', 'é', ' ', '\n', 'P'];
    for (const text of generated(parts, 20_000, 10, 11)) expect(pythonScan(text).methods, JSON.stringify(text)).toEqual(oldMethods(text));
    expect(pythonScan("self.out.write_text(s)\n2x.write_bytes(b)\nPath('a/b.py').read_text()").methods).toEqual([
      { path: undefined, variable: 'out', write: true },
      { path: undefined, variable: 'x', write: true },
      { path: 'a/b.py', variable: undefined, write: false },
    ]);
  });

  // A guard against catastrophic backtracking, not a speed test: the old pattern took ~6 s on this 48 K hex
  // literal (it grows with the square of the run's length); linear code takes milliseconds, so the generous bound
  // only fails if the quadratic scan comes back.
  it('a long hex literal in a script that writes bytes is scanned in linear time', () => {
    const code = `from pathlib import Path\nDATA = "${'deadbeefcafe'.repeat(4_000)}"\nPath("fixture.bin").write_bytes(bytes.fromhex(DATA))\n`;
    const start = performance.now();
    const scan = pythonScan(code);
    expect(performance.now() - start).toBeLessThan(500);
    expect(scan.methods).toEqual([{ path: 'fixture.bin', variable: undefined, write: true }]);
  });
});
