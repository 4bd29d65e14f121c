/**
 * Errors and trace paths (src/core/evidence/errors.ts) on the real fixtures, and the
 * submitted-diff reader (patch.ts) on every diff submitted in the real corpus runs,
 * checked against `git apply --numstat` (git's own count of each file's changed lines).
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { errorKind, MAX_TRACE_PATHS, tracePaths } from '../../src/core/evidence/errors.js';
import { parseDiff, patchRole } from '../../src/core/evidence/patch.js';
import { corpusRuns } from '../fixtures/corpus-runs.js';

const read = (name: string) => readFileSync(new URL(`../fixtures/evidence/${name}.txt`, import.meta.url), 'utf8');

describe('errors in command output', () => {
  it.each([
    ['python-traceback', 'traceback', ['reproduce.py', '/django__django/django/utils/html.py', '/django__django/django/forms/widgets.py']],
    ['python-syntax-error', 'syntax', ['/sympy__sympy/reproduce.py', '/sympy__sympy/sympy/parsing/mathematica.py']],
    ['go-build-fail', 'compile', ['calc/calc.go']],
    ['cargo-build-fail', 'compile', ['src/lib.rs']],
    ['cargo-fail', 'traceback', null], // a panic's backtrace
    ['mvn-fail', 'traceback', null], // a JUnit assertion's stack
    ['pytest-framed-summary', null, []], // a failing assertion is a test failure, not a traceback
    ['django-ok', null, []],
    ['go-fail-v', null, []],
  ] as const)('%s: %s', (name, kind, paths) => {
    const text = read(name);
    expect(errorKind(text)).toBe(kind);
    if (paths !== null && kind !== null) expect(tracePaths(text, kind)).toEqual(paths);
  });

  it('names the frames of a Java stack by file name and keeps at most MAX_TRACE_PATHS paths', () => {
    expect(tracePaths(read('mvn-fail'), 'traceback')).toContain('CalcTest.java');
    const deep = Array.from({ length: 100 }, (_, i) => `  File "/testbed/pkg/m${i}.py", line 3, in f`).join('\n');
    expect(tracePaths(`Traceback (most recent call last):\n${deep}\nRecursionError: x`, 'traceback')).toHaveLength(MAX_TRACE_PATHS);
  });
});

describe('submitted patch', () => {
  const diffs = corpusRuns().flatMap((r) =>
    r.steps.filter((s) => s.action.kind === 'finish' || s.action.kind === 'shell').flatMap((s) => (s.observation?.includes('diff --git ') ? [{ name: r.name, text: s.observation }] : [])),
  );

  it('counts what git counts, file by file, on every diff in the corpus runs', () => {
    let checked = 0;
    for (const { name, text } of diffs) {
      const files = parseDiff(text)!;
      const body = text.slice(text.indexOf('diff --git '));
      const git = spawnSync('git', ['apply', '--numstat', '-'], { input: body.endsWith('\n') ? body : `${body}\n`, encoding: 'utf8' });
      if (git.status !== 0) continue; // a diff the harness cut short
      const numstat = git.stdout
        .trim()
        .split('\n')
        .map((l) => l.split('\t'))
        .map(([a, d, p]) => ({ path: p!, lines: Number(a) + Number(d) }));
      expect(
        files.map((f) => ({ path: f.path, lines: f.lines })),
        name,
      ).toEqual(numstat);
      checked++;
    }
    expect(checked).toBeGreaterThan(20);
  });

  it('tells source from tests, scratch scripts and notes', () => {
    expect(patchRole('astropy/io/fits/fitsrec.py', false)).toBe('source');
    expect(patchRole('astropy/io/fits/tests/test_fitsrec.py', false)).toBe('test');
    expect(patchRole('reproduce_bug.py', true)).toBe('other');
    expect(patchRole('replicate.py', true)).toBe('other'); // new at the repository root
    expect(patchRole('setup.py', false)).toBe('source'); // an existing file at the root
    expect(patchRole('patch.txt', true)).toBe('other');
    expect(parseDiff('no diff here')).toBeNull();
  });
});
