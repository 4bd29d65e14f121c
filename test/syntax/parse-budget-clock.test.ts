/**
 * The parse budgets count tree-sitter's operations, not time (src/syntax/parse-budget.ts, T94): a loaded machine
 * (here a clock that runs 60 ms between two reads) parses every real text as a quiet one does, so a run's labels and
 * scores do not depend on it. With the wall-clock deadline they replaced, every long text that asked the progress
 * callback twice was halted: its scopes came from indentation, a command counted as unparsed.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { UNIFORM_PRIOR } from '../../src/core/prior.js';
import { scoreSteps } from '../../src/core/scorer.js';
import type { Analyzers } from '../../src/core/ports.js';
import { OPS_PER_CHECK, parseBudget } from '../../src/syntax/parse-budget.js';
import { createPythonScopeResolver } from '../../src/syntax/python-scope.js';
import { createShellAnalyzer } from '../../src/syntax/shell-analyzer.js';
import { corpusRuns } from '../fixtures/corpus-runs.js';

afterEach(() => vi.restoreAllMocks());

/** `performance.now` 60 ms later at every read, as on a machine that gives the process a core now and then. */
function slowClock(): void {
  let now = 0;
  vi.spyOn(performance, 'now').mockImplementation(() => (now += 60));
}

const fresh = (): Analyzers => ({ shell: createShellAnalyzer(), scope: createPythonScopeResolver() });

/** Every `.py` text over 2,048 characters an edit of the test corpus writes, and every command over 512 characters. */
function longTexts(): { python: string[]; commands: string[] } {
  const python: string[] = [];
  const commands: string[] = [];
  for (const run of corpusRuns())
    for (const { action: a } of run.steps) {
      if (a.kind === 'edit' && a.path.endsWith('.py') && (a.text?.length ?? 0) > 2048) python.push(a.text!);
      if (a.kind === 'shell' && a.command.length > 512) commands.push(a.command);
    }
  return { python, commands };
}

describe('the parse budgets do not read a clock that a loaded machine slows', () => {
  const { python, commands } = longTexts();

  it('a budget halts at the first check past its operations, whatever the wall clock reads', () => {
    slowClock();
    const check = parseBudget(2 * OPS_PER_CHECK + 50);
    expect([check(), check(), check(), check()]).toEqual([false, false, true, true]);
    expect(parseBudget(0)()).toBe(true);
  });

  it('every long .py text of the corpus gets its tree and the same scopes', () => {
    expect(python.length).toBeGreaterThan(0);
    const scopes = (text: string) => {
      const resolver = createPythonScopeResolver({ plainFromIndentation: false }); // the tree, even where indentation would answer
      const lines = text.split('\n').length;
      const found = [1, 2, 3, 4].map((q) => resolver.scopeAt('m.py', text, [Math.ceil((q * lines) / 5), Math.ceil((q * lines) / 5)]));
      return { found, trees: resolver.cacheStats().entries };
    };
    const quiet = python.map(scopes);
    slowClock();
    const loaded = python.map(scopes);
    expect(loaded).toEqual(quiet);
    expect(loaded.every((s) => s.trees === 1)).toBe(true);
  });

  it('every long command of the corpus parses the same', () => {
    expect(commands.length).toBeGreaterThan(0);
    const quiet = commands.map((c) => createShellAnalyzer().parse(c));
    slowClock();
    expect(commands.map((c) => createShellAnalyzer().parse(c))).toEqual(quiet);
  });

  it('a real run scores to the same JSON', () => {
    // The test corpus' one run whose score the old deadline changed (its long texts were halted, at this clock).
    const run = corpusRuns().find((r) => r.name === 'SWE-agent__mini-swe-agent__pull-refs/eval/example_trajectories/astropy__astropy-12907.traj.json#0')!;
    const score = () => JSON.stringify(scoreSteps(run.steps, { reference: { kind: 'prior', prior: UNIFORM_PRIOR }, analyzers: fresh() }));
    const quiet = score();
    slowClock();
    expect(score()).toBe(quiet);
  });
});
