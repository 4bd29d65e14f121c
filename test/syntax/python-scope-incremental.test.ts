/**
 * Issue 24 (speed on real sessions): a file's new text is reparsed from the tree of its previous text. On real
 * runs that halves the scope lookups' cost, and it must answer exactly what a fresh parse answers: checked on
 * every scope lookup labelling the corpus makes, and on every row of texts edited in the ways agents edit them.
 */
import { createRequire } from 'node:module';
import type Parser from 'tree-sitter';
import { describe, expect, it } from 'vitest';
import type { ScopeResolver } from '../../src/core/ports.js';
import { labelSteps } from '../../src/core/state-builder.js';
import { createPythonScopeResolver, createShellAnalyzer } from '../../src/syntax/index.js';
import { sampledTextKey } from '../../src/core/memory/packed-text.js';
import { reparseEdit, textEdit } from '../../src/syntax/python-scope.js';
import { corpusRuns } from '../fixtures/corpus-runs.js';

describe('textEdit', () => {
  it('spans what changed between the common prefix and suffix, with rows and columns', () => {
    expect(textEdit('a\nbc\nd', 'a\nbXc\nd')).toEqual({
      startIndex: 3,
      oldEndIndex: 3,
      newEndIndex: 4,
      startPosition: { row: 1, column: 1 },
      oldEndPosition: { row: 1, column: 1 },
      newEndPosition: { row: 1, column: 2 },
    });
    // Appending lines (a view that extends the known prefix).
    expect(textEdit('x = 1\n', 'x = 1\ny = 2\n')).toMatchObject({ startIndex: 6, oldEndIndex: 6, newEndIndex: 12, newEndPosition: { row: 2, column: 0 } });
    // Deleting, and texts with nothing in common.
    expect(textEdit('abc', 'ac')).toMatchObject({ startIndex: 1, oldEndIndex: 2, newEndIndex: 1 });
    expect(textEdit('abc', 'xyz')).toMatchObject({ startIndex: 0, oldEndIndex: 3, newEndIndex: 3 });
    // Equal texts: an empty edit. A repeated character is not counted twice by prefix and suffix.
    expect(textEdit('aaa', 'aaa')).toMatchObject({ startIndex: 3, oldEndIndex: 3, newEndIndex: 3 });
    expect(textEdit('aa', 'aaa')).toMatchObject({ startIndex: 2, oldEndIndex: 2, newEndIndex: 3 });
    // Columns count UTF-16 code units, as node tree-sitter does.
    expect(textEdit('é😀\nx', 'é😀\ny').startPosition).toEqual({ row: 1, column: 0 });
    expect(textEdit('é😀x', 'é😀y').startPosition).toEqual({ row: 0, column: 3 });
  });

  it('ends the span a tree is reparsed with at the end of its line, newline included (lps28)', () => {
    expect(reparseEdit('a\nbc\nd', 'a\nbXc\nd')).toEqual({
      startIndex: 3,
      oldEndIndex: 5,
      newEndIndex: 6,
      startPosition: { row: 1, column: 1 },
      oldEndPosition: { row: 2, column: 0 },
      newEndPosition: { row: 2, column: 0 },
    });
    // On the last line: to the end of the text. Appending: nothing after the change to move over.
    expect(reparseEdit('a\nbc', 'a\nbXc')).toMatchObject({ oldEndIndex: 4, newEndIndex: 5, newEndPosition: { row: 1, column: 3 } });
    expect(reparseEdit('x = 1\n', 'x = 1\ny = 2\n')).toEqual(textEdit('x = 1\n', 'x = 1\ny = 2\n'));
  });

  it('finds the same span in long texts, around the blocks the prefix and suffix are compared in (lps28)', () => {
    const line = (i: number): string => `    x${i} = compute(${i})  # ${'-'.repeat(i % 37)}\n`;
    const text = Array.from({ length: 400 }, (_, i) => line(i)).join('');
    const row = (offset: number, of = text): { row: number; column: number } => {
      const before = of.slice(0, offset).split('\n');
      return { row: before.length - 1, column: before.at(-1)!.length };
    };
    // One character changed at, before and after multiples of 256 (the blocks), from either end.
    for (const at of [0, 1, 255, 256, 257, 511, 512, 4096, text.length - 257, text.length - 256, text.length - 1]) {
      const changed = `${text.slice(0, at)}${text[at] === '#' ? '@' : '#'}${text.slice(at + 1)}`;
      expect(textEdit(text, changed), `at ${at}`).toEqual({
        startIndex: at,
        oldEndIndex: at + 1,
        newEndIndex: at + 1,
        startPosition: row(at),
        oldEndPosition: row(at + 1),
        newEndPosition: row(at + 1, changed),
      });
    }
    // Lines inserted 3,000 characters in, and the tail cut: rows counted through the changed span.
    const cut = text.indexOf('\n', 3000) + 1;
    const inserted = `${text.slice(0, cut)}def f():\n    pass\n${text.slice(cut)}`;
    expect(textEdit(text, inserted)).toMatchObject({ startIndex: cut, oldEndIndex: cut, newEndIndex: cut + 18, newEndPosition: { row: row(cut).row + 2, column: 0 } });
    expect(textEdit(text, text.slice(0, cut))).toMatchObject({ startIndex: cut, oldEndIndex: text.length, oldEndPosition: { row: 400, column: 0 } });
  });
});

/** A resolver that asks both resolvers and records each pair of answers. */
function comparing(fresh: ScopeResolver, incremental: ScopeResolver, seen: Array<[string | undefined, string | undefined]>): ScopeResolver {
  return {
    scopeAt(file, text, range) {
      const want = fresh.scopeAt(file, text, range);
      seen.push([want, incremental.scopeAt(file, text, range)]);
      return want;
    },
  };
}

describe('incremental reparsing', () => {
  it('answers every scope lookup of labelling the corpus as a fresh parse does', () => {
    const fresh = createPythonScopeResolver({ incremental: false, plainFromIndentation: false });
    const incremental = createPythonScopeResolver({ plainFromIndentation: false });
    const seen: Array<[string | undefined, string | undefined]> = [];
    const scope = comparing(fresh, incremental, seen);
    for (const run of corpusRuns())
      labelSteps(
        run.steps.map((s, t) => ({ ...s, t })),
        { shell: createShellAnalyzer(), scope },
      );
    expect(seen.filter(([a, b]) => a !== b)).toEqual([]);
    expect(seen.filter(([a]) => a !== undefined).length).toBeGreaterThan(100);
  });

  it('answers every row of a file as a fresh parse does, through views, edits, a syntax error and its fix', () => {
    const base = [
      'import os',
      '',
      'class Store:',
      '    """Keeps things.',
      'class NotAClass: (inside the docstring)',
      '    """',
      '',
      '    def get(self, key):',
      '        return self.items[key]',
      '',
      '    def put(self, key, value):',
      '        def check(v):',
      '            return v is not None',
      '        self.items[key] = value',
      '',
      'def helper():',
      '    return Store()',
    ];
    const texts = [
      base.slice(0, 9).join('\n'), // a first view
      base.join('\n'), // the view extended
      base.join('\n').replace('return self.items[key]', 'return self.items.get(key, None)'), // an edit in place
      base.join('\n').replace('    def put(self, key, value):\n', '    def put(self, key, value:\n'), // a syntax error
      base.join('\n').replace('def helper():', '@cache\ndef helper(n: int = 0):\n    """Doc."""'), // lines inserted
      base.slice(0, 14).join('\n'), // the tail gone
      `# header\n${base.join('\n')}`, // a line before everything
    ];
    const fresh = createPythonScopeResolver({ incremental: false, plainFromIndentation: false });
    let compared = 0;
    for (let i = 1; i < texts.length; i++) {
      // Each text parsed once from the tree of the one before (a tree looked up again is not taken), then every row.
      const incremental = createPythonScopeResolver({ plainFromIndentation: false });
      incremental.scopeAt('store.py', texts[i - 1]!, [1, 1]);
      const text = texts[i]!;
      const rows = text.split('\n').length;
      for (let r = 1; r <= rows; r++) {
        for (const k of [0, 3]) {
          expect(incremental.scopeAt('store.py', text, [r, r + k]), `row ${r}+${k} of:\n${text}`).toBe(fresh.scopeAt('store.py', text, [r, r + k]));
          compared++;
        }
      }
    }
    expect(compared).toBeGreaterThan(200);
  });

  it('reparses what an edit changed, not the rest of the file after a block it ends in (lps28)', () => {
    // Every reparse of a cold pass over the corpus, with the characters tree-sitter lexed in it (its log's `consume`
    // lines: a count, not a time). With the exact span, edits inside a block's last lines lexed the rest of the file.
    const TreeSitter = createRequire(import.meta.url)('tree-sitter') as typeof Parser;
    // eslint-disable-next-line @typescript-eslint/unbound-method -- called with its parser as `this`, put back below
    const parse = TreeSitter.prototype.parse;
    const reparses: Array<{ text: number; changed: number; lexed: number }> = [];
    TreeSitter.prototype.parse = function (this: Parser, input, old, options) {
      const text = (old as { input?: unknown } | undefined)?.input; // node tree-sitter keeps a tree's input on it
      const before = typeof text === 'string' && text !== input ? text : undefined;
      if (before === undefined || typeof input !== 'string') return parse.call(this, input, old, options);
      let lexed = 0;
      this.setLogger((message) => {
        if (message.startsWith('consume')) lexed++;
      });
      try {
        return parse.call(this, input, old, options);
      } finally {
        this.setLogger(null);
        const e = textEdit(before, input);
        reparses.push({ text: input.length, changed: Math.max(e.oldEndIndex, e.newEndIndex) - e.startIndex, lexed });
      }
    };
    try {
      const scope = createPythonScopeResolver({ plainFromIndentation: false });
      for (const run of corpusRuns()) labelSteps(run.steps, { shell: createShellAnalyzer(), scope });
    } finally {
      TreeSitter.prototype.parse = parse;
    }
    expect(reparses.length).toBeGreaterThan(40);
    // Before: 6 reparses lexed 4,241-8,861 characters for changes of 187-1,167 (the files 8,727-12,830 long).
    expect(reparses.filter((r) => r.lexed > 3 * r.changed + 1500)).toEqual([]);
  });

  it('takes a tree with errors out of the cache only when nobody looked its text up again; keeps a clean one (scope22)', () => {
    const v1 = 'class A:\n    def f(self):\n        return 1\n';
    const v2 = `import os\n\n${v1}`; // rows move: a cached tree edited in place would answer v1 wrongly
    const b1 = 'class A:\n    def f(self:\n        return 1\n'; // a syntax error: its copy costs about half a parse
    const once = createPythonScopeResolver({ plainFromIndentation: false });
    once.scopeAt('a.py', b1, [3, 3]);
    once.scopeAt('a.py', `import os\n\n${b1}`, [3, 3]);
    expect(once.cacheStats().entries).toBe(1);
    const clean = createPythonScopeResolver({ plainFromIndentation: false });
    clean.scopeAt('a.py', v1, [3, 3]);
    clean.scopeAt('a.py', v2, [3, 3]);
    expect(clean.cacheStats().entries).toBe(2);
    expect([1, 2, 3].map((r) => clean.scopeAt('a.py', v1, [r, r]))).toEqual(['A', 'A.f', 'A.f']);
    const twice = createPythonScopeResolver({ plainFromIndentation: false });
    twice.scopeAt('a.py', v1, [3, 3]);
    twice.scopeAt('a.py', v1, [2, 3]);
    twice.scopeAt('a.py', v2, [3, 3]);
    expect(twice.cacheStats().entries).toBe(2);
    expect([1, 2, 3].map((r) => twice.scopeAt('a.py', v1, [r, r]))).toEqual(['A', 'A.f', 'A.f']);
    expect([3, 4, 5].map((r) => twice.scopeAt('a.py', v2, [r, r]))).toEqual(['A', 'A.f', 'A.f']);
    expect(twice.cacheStats().entries).toBe(2);
  });

  it('keys trees by a sampled key, and answers a text only from its own tree (texts of one key are compared)', () => {
    const pad = `${'#'.repeat(6400)}\n`;
    const f = `def f():\n    return 1\n${pad}`;
    const g = `def g():\n    return 1\n${pad}`; // differs at index 4, which the key does not sample
    expect(sampledTextKey(g)).toBe(sampledTextKey(f));
    for (const incremental of [true, false]) {
      const scope = createPythonScopeResolver({ incremental, plainFromIndentation: false });
      expect([f, g, f, g, g].map((text) => scope.scopeAt('m.py', text, [2, 2]))).toEqual(['f', 'g', 'f', 'g', 'g']);
    }
  });
});
