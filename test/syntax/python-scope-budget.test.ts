/**
 * One Python parse is bounded: tree-sitter-python's error recovery is superlinear on text that is not Python (640 lines
 * of 99 dots took 3.9 s, 128 KiB 12.8 s: one view step of a file the tenant had just written held every tenant's event
 * loop). A parse over its operation budget is halted and the text's scopes come from indentation, as a larger file's do.
 * And every reparse of a long text with syntax errors costs about its length (error recovery), so a session scrolling
 * through growing files of such text cost 42 ms a step at 5,000 steps (211 s, quadratic): after such parses
 * (STRIKES lookups in a row), the path answers from indentation for a span of lookups (doubling while it stays so), kept per run (`scopeAt`'s `run`) so
 * that no run's answers depend on another's.
 */
import Parser from 'tree-sitter';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ScopeResolver } from '../../src/core/ports.js';
import { indentScope } from '../../src/syntax/python-indent-scope.js';
import { createPythonScopeResolver, ERROR_TEXT_CHARS, INDENT_LOOKUPS, STRIKES } from '../../src/syntax/python-scope.js';
import { cpuMs } from '../cpu-clock.js';

/** A real-looking module of `n` classes with two methods each (about 120 characters a class). */
const moduleOf = (n: number) => Array.from({ length: n }, (_, i) => `class C${i}:\n    def a(self):\n        return ${i}\n\n    def b(self):\n        return self.a() + 1\n\n`).join('');

afterEach(() => vi.restoreAllMocks());

/** Lookups of one run: the resolver keyed by an object of the run's own (a session's workspace, in the scorer). */
const runOf = (resolver: ScopeResolver) => {
  const run = {};
  return { scopeAt: (file: string, text: string, range: [number, number]) => resolver.scopeAt(file, text, range, run) };
};

// The budget counts tree-sitter's operations (parse-budget.ts): a loaded machine no longer halts a real parse, so no
// test needs a CPU clock for one to fit (a wall-clock budget once halted the ~20 ms parse of a 72 KB module here).
describe('the Python parse budget', () => {
  it('a parse over the budget answers from indentation, and so do the next lookups of its path', () => {
    const parse = vi.spyOn(Parser.prototype, 'parse');
    const text = moduleOf(600);
    const halted = createPythonScopeResolver({ parseBudgetOps: 0, plainFromIndentation: false });
    expect(halted.scopeAt('m.py', text, [6, 6])).toBe(indentScope(text, 5, 5));
    expect(halted.scopeAt('m.py', text, [6, 6])).toBe('C0.b');
    expect(parse).toHaveBeenCalledTimes(1);
    expect(halted.cacheStats().entries).toBe(0);
    // The parser goes on with the next text from scratch (a short one carries no budget).
    expect(halted.scopeAt('n.py', moduleOf(2), [13, 13])).toBe('C1.b');
    expect(parse).toHaveBeenCalledTimes(2);
  });

  it('long texts with syntax errors, STRIKES lookups in a row, send the path to indentation for a span, doubled while it stays so', () => {
    const parse = vi.spyOn(Parser.prototype, 'parse');
    const broken = `${moduleOf(40)}def (:\n`;
    expect(broken.length).toBeGreaterThan(ERROR_TEXT_CHARS);
    const run = runOf(createPythonScopeResolver());
    const lookups = (n: number) => {
      for (let i = 0; i < n; i++) expect(run.scopeAt('m.py', broken, [6, 6])).toBe('C0.b');
      return parse.mock.calls.length;
    };
    expect(lookups(STRIKES)).toBe(1); // parsed once, then from the cached tree: STRIKES lookups with errors in a row
    expect(lookups(INDENT_LOOKUPS)).toBe(1); // answered from indentation
    expect(lookups(1)).toBe(1); // the cached tree again, still with errors: the span doubles
    expect(lookups(2 * INDENT_LOOKUPS)).toBe(1);
    // A short broken text starts no span.
    const fixed = runOf(createPythonScopeResolver());
    expect(fixed.scopeAt('m.py', broken, [6, 6])).toBe('C0.b');
    expect(fixed.scopeAt('n.py', 'def (:\n', [1, 1])).toBe('<module>');
    expect(fixed.scopeAt('n.py', 'def (:\nx = 1\n', [1, 1])).toBe('<module>');
    expect(parse.mock.calls.length).toBe(4);
  });

  it("one run's spans do not change another run's answers, nor the resolver's own lookups", () => {
    const parse = vi.spyOn(Parser.prototype, 'parse');
    const resolver = createPythonScopeResolver();
    const broken = `${moduleOf(40)}def (:\n`;
    const a = runOf(resolver);
    const b = runOf(resolver);
    for (let i = 0; i < STRIKES; i++) a.scopeAt('m.py', broken, [6, 6]);
    a.scopeAt('m.py', `${broken}\n`, [6, 6]); // a's span: indentation, no parse
    expect(parse).toHaveBeenCalledTimes(1);
    const parsed = () => parse.mock.calls.length;
    let before = parsed();
    b.scopeAt('m.py', `${broken}\n`, [6, 6]); // b has no span: it parses
    expect(parsed()).toBeGreaterThan(before);
    before = parsed();
    resolver.scopeAt('m.py', `${broken}\n\n`, [6, 6]);
    expect(parsed()).toBeGreaterThan(before);
  });

  it('a real module parses within the default budget (a tree, not indentation)', () => {
    const scope = createPythonScopeResolver({ plainFromIndentation: false }); // a plain module is not parsed at all
    expect(scope.scopeAt('m.py', moduleOf(600), [6, 6])).toBe('C0.b');
    expect(scope.cacheStats().entries).toBe(1);
  });

  // A guard against catastrophic parse time, not a speed target: the old code took 12.8 s on this text. Counted in
  // CPU time: the CPU backstop (parse-budget.ts) halts it, and a loaded machine stretches its wall-clock.
  it('127 KiB of lines of dots costs at most the budget', () => {
    const dots = `${'.'.repeat(99)}\n`.repeat(1300);
    const scope = createPythonScopeResolver();
    const started = cpuMs();
    expect(scope.scopeAt('a.py', dots, [2, 2])).toBe(indentScope(dots, 1, 1));
    expect(scope.scopeAt('a.py', dots, [3, 3])).toBe('<module>');
    expect(cpuMs() - started).toBeLessThan(1500);
    expect(scope.cacheStats().entries).toBe(0);
  });
});
