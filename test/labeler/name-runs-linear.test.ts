/**
 * A long file name or `sed` script in a streamed step is classified in linear time on the event loop the sessions
 * share. Three patterns backtracked on runs of one character: the camelCase split of a test-file name
 * (`([A-Z]+)([A-Z][a-z])`, quadratic on capitals: a 16 KiB path held the loop 0.25 s, a megabyte path minutes), the
 * backup-name test (`backup\d*\d*`, quadratic on digits after `.backup`: 16 KiB, 0.13 s) and `sed -n`'s range
 * (adjacent `\s*`, quadratic on blanks: a 16 KiB script, 0.12 s; tree-sitter hands it at most 16 KiB). Each is checked
 * against the old pattern on every string of the corpus logs and on small generated texts, then fed a megabyte run.
 * No timing is asserted.
 */
import { describe, expect, it } from 'vitest';
import { isBackupPath, testPathUncached } from '../../src/core/labeler/file-roles.js';
import { sedPrintRange } from '../../src/core/labeler/shell-args.js';
import { corpusStrings } from '../fixtures/corpus-runs.js';
import { generated, run } from './helpers.js';

/** testPathUncached and isBackupPath as they were, with the old patterns. */
function oldWordParts(name: string): string[] {
  return name
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
    .split(/[\s_.\-0-9]+/)
    .filter((s) => s !== '')
    .map((s) => s.toLowerCase());
}
function oldTestPath(path: string): boolean {
  const segments = path.split('/').filter((s) => s !== '');
  const name = segments.pop() ?? '';
  const dirs = new Set(['test', 'tests', 'testing', '__tests__']);
  if (segments.some((s) => dirs.has(s.toLowerCase()) || oldWordParts(s).some((p) => dirs.has(p)))) return true;
  if (oldWordParts(name).some((p) => ['test', 'tests', 'testing', 'conftest'].includes(p))) return true;
  return /\.(spec|test)\.[cm]?[jt]sx?$/i.test(name);
}
const oldBackup = (path: string) => /(\.(bak|backup\d*|orig|old|save|sav|copy)\d*|~)$|backup/i.test(path.slice(path.lastIndexOf('/') + 1));
function oldSedRange(script: string): [number, number] | undefined {
  const m = /^\s*(\d+)\s*(?:,\s*(\d+|\$))?\s*p\s*;?\s*$/.exec(script);
  if (!m) return undefined;
  if (m[2] === '$') return undefined;
  return [Number(m[1]), m[2] === undefined ? Number(m[1]) : Number(m[2])];
}
const MB = 1 << 20;

function expectSame(text: string, shown: string): void {
  expect(testPathUncached(text), shown).toBe(oldTestPath(text));
  expect(isBackupPath(text), shown).toBe(oldBackup(text));
  expect(sedPrintRange(text), shown).toEqual(oldSedRange(text));
}

describe('long runs in file names and sed scripts', () => {
  it('the test-file, backup and sed-range readers say what the old patterns said, on every string of the corpus logs', () => {
    const texts = corpusStrings();
    expect(texts.length).toBeGreaterThan(10_000);
    // Every word of them too (paths and sed scripts are words of commands), and each quoted sed script.
    const words = new Set(texts.flatMap((t) => t.split(/\s+/)));
    const scripts = texts.flatMap((t) => [...t.matchAll(/sed -n\s+(?:'([^']*)'|"([^"]*)")/g)].map((m) => m[1] ?? m[2] ?? ''));
    expect(scripts.filter((s) => sedPrintRange(s) !== undefined).length).toBeGreaterThan(10);
    for (const text of [...texts, ...words, ...scripts]) expectSame(text, text.slice(0, 200));
  });

  it('... and on generated texts', () => {
    const parts = ['A', 'B', 'a', 'b', 'AB', 'Test', 'TEST', 'test', '_', '.', '-', '/', '1', '12', '~', '.bak', '.backup', 'backup', 'BackUp', '.orig', '.copy'];
    const sed = [' ', '\t', '\n', ',', '$', 'p', ';', 'x'];
    for (const text of generated([...parts, ...sed], 60_000)) expectSame(text, JSON.stringify(text));
  });

  it('a megabyte path or sed script is classified (the old patterns ran for minutes)', () => {
    const caps = 'A'.repeat(MB);
    expect(testPathUncached(`pkg/${caps}`)).toBe(false);
    expect(testPathUncached(`pkg/${caps}Test.py`)).toBe(true);
    expect(testPathUncached(`${caps}tests/a.py`)).toBe(false);
    expect(isBackupPath(`pkg/.backup${'1'.repeat(MB)}x`)).toBe(true);
    expect(isBackupPath(`pkg/a.bak${'1'.repeat(MB)}x`)).toBe(false);
    expect(isBackupPath(`pkg/a.bak${'1'.repeat(MB)}`)).toBe(true);
    expect(sedPrintRange(`1${' '.repeat(MB)}x`)).toBeUndefined();
    expect(sedPrintRange(`1p${' '.repeat(MB)}x`)).toBeUndefined();
    expect(sedPrintRange(` 1${' '.repeat(MB)},${' '.repeat(MB)}2${' '.repeat(MB)}p${' '.repeat(MB)};${' '.repeat(MB)}`)).toEqual([1, 2]);
    const edit = (path: string) => ({ kind: 'edit', op: 'str_replace', path, old: 'a', new: 'b' }) as const;
    const steps = (n: number) => run([edit(`pkg/${'A'.repeat(n)}`), { kind: 'edit', op: 'create', path: `.backup${'1'.repeat(n)}x`, text: 'x' }]);
    expect(steps(MB).map((s) => [s.label.kind, s.state.stage])).toEqual(steps(3).map((s) => [s.label.kind, s.state.stage]));
  });
});
