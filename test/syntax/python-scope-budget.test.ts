/**
 * One Python parse is bounded: tree-sitter-python's error recovery is superlinear on text that is not Python (640 lines
 * of 99 dots took 3.9 s, 128 KiB 12.8 s: one view step of a file the tenant had just written held every tenant's event
 * loop). A parse over its time budget is halted, the text's scopes come from indentation as a larger file's do, and
 * the text is remembered so its next lookups do not spend the budget again.
 */
import Parser from 'tree-sitter';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { indentScope } from '../../src/syntax/python-indent-scope.js';
import { createPythonScopeResolver } from '../../src/syntax/python-scope.js';

/** A real-looking module of `n` classes with two methods each (about 120 characters a class). */
const moduleOf = (n: number) => Array.from({ length: n }, (_, i) => `class C${i}:\n    def a(self):\n        return ${i}\n\n    def b(self):\n        return self.a() + 1\n\n`).join('');

afterEach(() => vi.restoreAllMocks());

describe('the Python parse budget', () => {
  it('a parse over the budget answers from indentation, once: the text is not parsed again', () => {
    const parse = vi.spyOn(Parser.prototype, 'parse');
    const text = moduleOf(600);
    const halted = createPythonScopeResolver({ parseBudgetMs: 0 });
    expect(halted.scopeAt('m.py', text, [6, 6])).toBe(indentScope(text, 5, 5));
    expect(halted.scopeAt('m.py', text, [6, 6])).toBe('C0.b');
    expect(parse).toHaveBeenCalledTimes(1);
    expect(halted.cacheStats().entries).toBe(0);
    // The parser goes on with the next text from scratch (a short one carries no budget).
    expect(halted.scopeAt('n.py', moduleOf(2), [13, 13])).toBe('C1.b');
    expect(parse).toHaveBeenCalledTimes(2);
  });

  it('a real module parses within the default budget (a tree, not indentation)', () => {
    const scope = createPythonScopeResolver();
    expect(scope.scopeAt('m.py', moduleOf(600), [6, 6])).toBe('C0.b');
    expect(scope.cacheStats().entries).toBe(1);
  });

  // A guard against catastrophic parse time, not a speed target: the old code took 12.8 s on this text.
  it('127 KiB of lines of dots costs at most the budget', () => {
    const dots = `${'.'.repeat(99)}\n`.repeat(1300);
    const scope = createPythonScopeResolver();
    const started = performance.now();
    expect(scope.scopeAt('a.py', dots, [2, 2])).toBe(indentScope(dots, 1, 1));
    expect(scope.scopeAt('a.py', dots, [3, 3])).toBe('<module>');
    expect(performance.now() - started).toBeLessThan(1500);
    expect(scope.cacheStats().entries).toBe(0);
  });
});
