/**
 * Issue 24 item 2 (scope22): the corpus's slowest steps were tree-sitter parses of a file's known text. A tree with no
 * syntax error is kept when the next text of its path is parsed (a copy of it is edited), so another session at the
 * same text does not parse it again: before, a view and its extension took each other's trees, and every session of
 * a task parsed both (dask-8685 seq 2 and 5). Indentation indexes are kept per text, not one per path. Counted
 * (parse calls, characters parsed, indexes kept), never timed; and every answer checked against a fresh parse.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import Parser from 'tree-sitter';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ScopeResolver } from '../../src/core/ports.js';
import { labelSteps } from '../../src/core/state-builder.js';
import type { Step } from '../../src/core/types.js';
import { parseInstancesText } from '../../src/formats/index.js';
import { createPythonScopeResolver, createShellAnalyzer } from '../../src/syntax/index.js';
import { corpusRuns } from '../fixtures/corpus-runs.js';

afterEach(() => vi.restoreAllMocks());

/** Characters handed to tree-sitter (any grammar) while `f` runs. */
function parsedChars(f: () => void): { parses: number; chars: number } {
  const parse = vi.spyOn(Parser.prototype, 'parse');
  try {
    f();
    const chars = parse.mock.calls.reduce((n, [input]) => n + (typeof input === 'string' ? input.length : 0), 0);
    return { parses: parse.mock.calls.length, chars };
  } finally {
    parse.mockRestore();
  }
}

const methods = (n: number): string => Array.from({ length: n }, (_, i) => `    def m${i}(self):\n        return ${i}\n`).join('');
/** A clean file, then its extension (a later view reaching further): both parse without errors. */
const head = `import os\n\nclass A:\n${methods(20)}`;
const whole = `${head}\nclass B:\n${methods(20)}`;
/** A view the editor clipped inside a docstring (its tree one error), then the view that extends it. */
const clipped = `${head}\ndef eye(n):\n    """Identity.\n\n    n : int, opt<response clipped>`;
const extended = `${head}\ndef eye(n):\n    """Identity.\n\n    n : int, optional\n    """\n    return n\n`;

describe('trees kept for the next session at the same text', () => {
  it('keeps a clean tree when the next text of its path is parsed: the sessions after the first parse nothing', () => {
    const scope = createPythonScopeResolver({ plainFromIndentation: false });
    const session = (): number => {
      const run = {};
      return parsedChars(() => {
        expect(scope.scopeAt('a.py', head, [5, 5], run)).toBe('A.m0');
        expect(scope.scopeAt('a.py', whole, [46, 46], run)).toBe('B.m0');
      }).chars;
    };
    expect(session()).toBeGreaterThan(0);
    // Before: `whole` took the tree of `head`, and the next session's `head` took the tree of `whole`.
    expect([session(), session()]).toEqual([0, 0]);
    expect(scope.cacheStats().entries).toBe(2);
  });

  it('a clipped view and its extension (dask-8685 seq 2 and 5): parsed by the first two sessions only', () => {
    const scope = createPythonScopeResolver({ plainFromIndentation: false });
    const counts = Array.from({ length: 4 }, () => {
      const run = {};
      return parsedChars(() => {
        expect(scope.scopeAt('c.py', clipped, [1, 46], run)).toBe('<module>');
        expect(scope.scopeAt('c.py', extended, [46, 47], run)).toBe('eye');
      });
    });
    // The clipped tree (errors: a copy costs about half a fresh parse) is taken by its extension once; the second
    // session parses the clipped text again from the extension's kept tree, and then both are kept.
    expect(counts.slice(2).map((c) => c.parses)).toEqual([0, 0]);
    expect(counts[1]!.parses).toBeGreaterThan(0);
  });

  it('keeps the indentation index of each text of a path, not only the last one', () => {
    const scope = createPythonScopeResolver();
    for (let i = 0; i < 3; i++) for (const text of [head, whole]) expect(scope.scopeAt('a.py', text, [5, 5])).toBe('A.m0');
    expect(scope.indexStats().entries).toBe(2);
  });
});

/** A resolver asking `fresh` and `kept` in turn, recording both answers. */
function comparing(fresh: ScopeResolver, kept: ScopeResolver, seen: Array<[string | undefined, string | undefined]>): ScopeResolver {
  return {
    scopeAt(file, text, range, run) {
      const want = fresh.scopeAt(file, text, range, run);
      seen.push([want, kept.scopeAt(file, text, range, run)]);
      return want;
    },
  };
}

/** The copied fixtures' real runs (gzipped trajectories of test/fixtures) and the test corpus's. */
function fixtureRuns(): Step[][] {
  const dir = path.join(import.meta.dirname, '../fixtures');
  const gz = [
    'coder__django__django-11797.traj.gz',
    'coder__sympy__sympy-13971.traj.gz',
    'swe-agent-0__django__django-11564.traj.gz',
    'swe-agent-0__django__django-13401.traj.gz',
    'swe-agent-0__django__django-16046.traj.gz',
  ];
  const runs = gz.flatMap((name) => {
    const parsed = parseInstancesText(gunzipSync(readFileSync(path.join(dir, name))).toString('utf8'), 'auto', name);
    if (!parsed.ok) throw parsed.error;
    return parsed.value.map((r) => r.steps);
  });
  return [...runs, ...corpusRuns().map((r) => r.steps)];
}

describe('kept trees and indexes answer as a fresh parse does', () => {
  it.each([
    ['tree-sitter for every lookup', false],
    ['indentation where plain', true],
  ])('every scope lookup of labelling the fixtures and the corpus, each run three times in turn (%s)', (_, plainFromIndentation) => {
    const fresh = createPythonScopeResolver({ incremental: false, plainFromIndentation });
    const kept = createPythonScopeResolver({ plainFromIndentation });
    const seen: Array<[string | undefined, string | undefined]> = [];
    const scope = comparing(fresh, kept, seen);
    const runs = fixtureRuns();
    // Each run labelled three times over, as the rollouts of one task: the later passes meet kept trees and indexes.
    for (const steps of runs)
      for (let pass = 0; pass < 3; pass++)
        labelSteps(
          steps.map((s, t) => ({ ...s, t })),
          { shell: createShellAnalyzer(), scope },
        );
    expect(seen.filter(([a, b]) => a !== b)).toEqual([]);
    expect(seen.filter(([a]) => a !== undefined && a.length > 0).length).toBeGreaterThan(300);
  });
});
