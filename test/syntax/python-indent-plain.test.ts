/**
 * Issue 24 (scope17): on distinct runs the scope lookup's tree-sitter-python parse was 42 % of a step's CPU. Where a
 * text is plain (python-indent-index.ts) and the range's end is not where the tree draws a definition's end
 * otherwise than its indentation, the scope comes from indentation without parsing. The answers must be the tree's:
 * checked on every lookup labelling the corpus makes, on every row of real files, and on the cases that are not plain.
 */
import { readFileSync } from 'node:fs';
import Parser from 'tree-sitter';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ScopeResolver } from '../../src/core/ports.js';
import { labelSteps } from '../../src/core/state-builder.js';
import { indexPython, plainIndentScope } from '../../src/syntax/python-indent-scope.js';
import { createPythonScopeResolver, createShellAnalyzer } from '../../src/syntax/index.js';
import { INDEX_CACHE_BYTES } from '../../src/syntax/python-scope.js';
import { corpusRuns } from '../fixtures/corpus-runs.js';

afterEach(() => vi.restoreAllMocks());

const clientFiles = ['hook.py', 'rewards.py', 'session.py', 'stream.py'].map((f) => readFileSync(`clients/python/steplens_client/${f}`, 'utf8'));
/** A resolver that asks tree-sitter for every lookup, as before this pass. */
const treeOnly = () => createPythonScopeResolver({ plainFromIndentation: false, cacheSize: 100_000, cacheBytes: 2 ** 40 });

describe('scopes from indentation where the text is plain', () => {
  it('answers every row of real files without parsing, as the tree does', () => {
    const tree = treeOnly();
    const lookups: Array<{ file: string; text: string; range: [number, number]; want: string | undefined }> = [];
    for (const [i, text] of clientFiles.entries()) {
      const file = `c${i}.py`;
      expect(indexPython(text).plain).toBe(true);
      const rows = text.split('\n').length;
      for (let r = 1; r <= rows; r++) for (const k of [0, 2]) lookups.push({ file, text, range: [r, r + k], want: tree.scopeAt(file, text, [r, r + k]) });
    }
    expect(lookups.length).toBeGreaterThan(500);
    // A path per lookup, as distinct sessions meet each text once: no tree is ever reused.
    const parse = vi.spyOn(Parser.prototype, 'parse');
    const scope = createPythonScopeResolver();
    for (const [n, { file, text, range, want }] of lookups.entries()) expect(scope.scopeAt(`${n}/${file}`, text, range), `${file} rows ${range.join('-')}`).toBe(want);
    // Only lookups ending on a run of comment lines are parsed (the tree may keep such a comment in a body).
    expect(parse.mock.calls.length).toBeLessThan(lookups.length / 10);
  });

  it('answers every scope lookup of labelling the corpus as tree-sitter does, most of them without a parse', () => {
    const tree = treeOnly();
    const plain = createPythonScopeResolver({ cacheSize: 100_000, cacheBytes: 2 ** 40 });
    const seen: Array<[string | undefined, string | undefined]> = [];
    for (const run of corpusRuns()) {
      const scope: ScopeResolver = {
        scopeAt(file, text, range, ws) {
          const want = tree.scopeAt(file, text, range, ws);
          seen.push([want, plain.scopeAt(file, text, range, ws)]);
          return want;
        },
      };
      labelSteps(
        run.steps.map((s, t) => ({ ...s, t })),
        { shell: createShellAnalyzer(), scope },
      );
    }
    expect(seen.filter(([a, b]) => a !== b)).toEqual([]);
    expect(seen.filter(([a]) => a !== undefined).length).toBeGreaterThan(100);
    // Parsed texts: the tree-only resolver keeps every text it parsed; the other parses under half as many.
    expect(plain.cacheStats().entries).toBeLessThan(tree.cacheStats().entries / 2);
  });

  it('asks the tree where indentation is not provably its answer', () => {
    const cases: Array<[string, string, number]> = [
      ['a comment after a body (the tree keeps it inside)', 'def f():\n    x = 1\n    # trailing\n\ny = 2\n', 3],
      ['a blank line before such a comment', 'def f():\n    x = 1\n\n    # trailing\ny = 2\n', 3],
      ['a blank line inside a docstring', 'def f():\n    """a\n\n    b\n    """\nx = 1\n', 3],
      ['a string open at the end', 'def f():\n    """Doc\n', 2],
      ["a quoted string open at its line's end", "def f():\n    s = 'it\n    return s\n", 3],
      ['a quoted string continued by a backslash', "def f():\n    s = 'abc\\\nclass B: pass'\n    return s\n", 2],
      ['a block with no body yet', 'class A:\n    def f(self):\n', 2],
      ['a decorator with no definition', 'class A:\n    x = 1\n    @property\n', 3],
      ['tabs in the indentation', 'def f():\n\tif x:\n\t\ty = 1\n\tz = 2\n', 3],
      ['carriage returns', 'def f():\r\n    x = 1\r\n\r\ny = 2\r\n', 3],
      ['an indent no colon opened', 'def f():\n    x = 1\n        y = 2\n', 2],
      ['a dedent to no open level', 'def f():\n        x = 1\n    y = 2\n', 2],
      ['words no keyword joins (an editor command)', 'import os\nend_of_edit\n\nedit 66:66\ndef f():\n    pass\n', 6],
      ['a backslash at the end of a comment', 'def f():\n    x = 1  # \\\n    y = 2\n', 3],
      ['a character Python has only in strings', 'def f():\n    x = $y\n', 2],
    ];
    const tree = treeOnly();
    for (const [what, text, row] of cases) {
      expect(plainIndentScope(indexPython(text), row - 1, row - 1), what).toBeUndefined();
      const parse = vi.spyOn(Parser.prototype, 'parse');
      expect(createPythonScopeResolver().scopeAt('t.py', text, [row, row]), what).toBe(tree.scopeAt('t.py', text, [row, row]));
      expect(parse, what).toHaveBeenCalled();
      vi.restoreAllMocks();
    }
  });

  it('reads decorators, async, one-line bodies, nested classes and continuation lines as the tree does', () => {
    const text = [
      'import os',
      '',
      'class A(Base,',
      '        Mixin):',
      '    """Doc: def not_a_def():',
      'class NotAClass:',
      '    """',
      '    @property',
      '    def p(self): return 1',
      '',
      '    class Inner:',
      '        async def run(self, x=(1,',
      '                2)):',
      '            y = x + \\',
      '                3',
      '            f = lambda v: v',
      '            return [i for i in',
      '                    y]',
      '',
      'def g(): pass',
      'z = 1',
    ].join('\n');
    expect(indexPython(text).plain).toBe(true);
    const tree = treeOnly();
    const scope = createPythonScopeResolver();
    const rows = text.split('\n').length;
    for (let r = 1; r <= rows; r++) for (const k of [0, 1, 3]) expect(scope.scopeAt('t.py', text, [r, r + k]), `rows ${r}-${r + k}`).toBe(tree.scopeAt('t.py', text, [r, r + k]));
    expect(scope.cacheStats().entries).toBe(0); // none of it parsed
  });
});

describe('the indexes kept', () => {
  it('hold at most INDEX_CACHE_BYTES, and never a big file (the flood drill: 850 KB files once held ~38 MB)', () => {
    const resolver = createPythonScopeResolver();
    const big = (n: number): string => Array.from({ length: 12_000 }, (_, c) => `class M${n}_${c}:\n    def f(self):\n        return ${c}\n`).join('');
    for (let n = 0; n < 4; n++) expect(resolver.scopeAt(`big${n}.py`, big(n), [2, 2])).toBe(`M${n}_0.f`);
    expect(resolver.indexStats().entries).toBe(0);
    const small = (n: number): string => `def f${n}():\n    x = 1\n${'# pad\n'.repeat(3000)}`;
    for (let n = 0; n < 40; n++) expect(resolver.scopeAt(`s${n}.py`, small(n), [2, 2])).toBe(`f${n}`);
    expect(resolver.indexStats().bytes).toBeLessThanOrEqual(INDEX_CACHE_BYTES);
    expect(resolver.indexStats().entries).toBeGreaterThan(0);
  });
});
