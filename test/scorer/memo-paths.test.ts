/**
 * The per-step memos of the scoring path give what the unmemoised code gives, on every real corpus
 * run: the variant key of a terminal action memoised on its cached terminal facts (cold and warm),
 * the Python file-use scan memoised per text, a shell line's intents shared with the steps that add to them, and whole runs scored again once every memo and the
 * shared-text pool are warm (bit-identical results).
 */
import { describe, expect, it } from 'vitest';
import { Labeler } from '../../src/core/labeler/labeler.js';
import { pythonFileUse, scanPythonFileUse } from '../../src/core/labeler/python-writes.js';
import { UNIFORM_PRIOR } from '../../src/core/prior.js';
import { scoreSteps } from '../../src/core/scorer.js';
import { stepFailed } from '../../src/core/state/failure.js';
import { TERMINAL_CACHE_ENTRIES, terminalCacheSize, terminalFacts } from '../../src/core/state/terminal-facts.js';
import { exactAction, exactKey, terminalExactKey } from '../../src/core/state/variant.js';
import type { Step } from '../../src/core/types.js';
import { defaultAnalyzers } from '../../src/syntax/index.js';
import { corpusRuns } from '../fixtures/corpus-runs.js';

const analyzers = defaultAnalyzers();

describe('memoised scoring paths', () => {
  it('terminalExactKey equals exactKey(exactAction(..)) for every terminal step, first and repeated', () => {
    let checked = 0;
    for (const run of corpusRuns()) {
      const labeler = new Labeler(analyzers.shell);
      for (const step of run.steps) {
        const outcome = labeler.label(step, stepFailed(step));
        const a = step.action;
        if (a.kind !== 'shell' && a.kind !== 'code') continue;
        const root = labeler.repoRoot;
        const dir = outcome.paths.dir;
        const facts = terminalFacts(a.kind, a.kind === 'shell' ? a.command : a.code, root);
        const want = exactKey(exactAction(a, step.tool, outcome.label.file, dir, root));
        expect(terminalExactKey(facts, a, dir, root)).toBe(want);
        expect(terminalExactKey(facts, a, dir, root)).toBe(want);
        // Another directory: a shell command's key changes with it, a code cell's does not.
        const other = `${dir}/elsewhere`;
        expect(terminalExactKey(facts, a, other, root)).toBe(exactKey(exactAction(a, step.tool, outcome.label.file, other, root)));
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(1000);
  });

  it('the memoised Python file-use scan equals a fresh scan on every command and cell', () => {
    let withFiles = 0;
    for (const run of corpusRuns()) {
      for (const step of run.steps) {
        const a = step.action;
        const text = a.kind === 'shell' ? a.command : a.kind === 'code' ? a.code : undefined;
        if (text === undefined) continue;
        const fresh = scanPythonFileUse(text);
        expect(pythonFileUse(text)).toEqual(fresh);
        expect(pythonFileUse(text)).toEqual(fresh);
        if (fresh.writes.length + fresh.reads.length > 0) withFiles++;
      }
    }
    expect(withFiles).toBeGreaterThan(10);
  });

  it("a shell line's memoised intents are handed out unchanged after a step that added script writes to them", () => {
    const sh = (t: number, command: string): Step => ({ t, tool: 'bash', cwd: '/testbed', action: { kind: 'shell', command } });
    // A line not labelled before in this process (the memo is per parsed line): its intents, first time.
    const line = `cd /testbed && python gen_${process.pid}.py`;
    const first = new Labeler(analyzers.shell).label(sh(0, line), false).intents;
    expect(first).toEqual([{ type: 'run', kind: 'run_script', file: `gen_${process.pid}.py` }]);
    // The same line after the script it runs was written: the scan adds a write of a file seen before.
    const labeler = new Labeler(analyzers.shell);
    labeler.label(sh(0, 'cat out.txt'), false);
    labeler.label(sh(1, `cat > gen_${process.pid}.py <<'EOF'\nopen('out.txt', 'w').write('x')\nEOF`), false);
    const withWrites = labeler.label(sh(2, line), false).intents;
    expect(withWrites).toEqual([...first, { type: 'write', file: 'out.txt', create: false, script: true }]);
    // A fresh labeler gets the first intents again, and so does the first one's list (it was not added to).
    expect(new Labeler(analyzers.shell).label(sh(0, line), false).intents).toEqual([{ type: 'run', kind: 'run_script', file: `gen_${process.pid}.py` }]);
    expect(first).toHaveLength(1);
  });

  it('scoring every run again with warm memos and shared texts gives the same results', () => {
    const options = { reference: { kind: 'prior' as const, prior: UNIFORM_PRIOR }, analyzers };
    const runs = corpusRuns();
    const first = runs.map((r) => JSON.stringify(scoreSteps(r.steps, options)));
    // Kept alive while the runs are scored again, so their long texts are in the shared pool.
    const again = runs.map((r) => JSON.stringify(scoreSteps(structuredClone(r.steps), options)));
    expect(again).toEqual(first);
  });
});

describe('terminal facts cache', () => {
  it('keeps a command in use while the cache fills over three times; evicts one left unused', () => {
    const keep = 'pytest tests/test_keep.py -x -q';
    const drop = 'pytest tests/test_drop.py -x -q';
    const kept = terminalFacts('shell', keep, '/repo');
    const dropped = terminalFacts('shell', drop, '/repo');
    for (let i = 0; i < 3 * TERMINAL_CACHE_ENTRIES; i++) {
      terminalFacts('shell', `echo filler ${i}`, '/repo');
      // Hits closer together than a quarter of the cache (not all of them move the entry), and a fresh copy of the text.
      if (i % 1000 === 0) expect(terminalFacts('shell', JSON.parse(JSON.stringify(keep)) as string, '/repo')).toBe(kept);
    }
    expect(terminalFacts('shell', keep, '/repo')).toBe(kept);
    const again = terminalFacts('shell', drop, '/repo');
    expect(again).not.toBe(dropped);
    expect(again).toEqual(dropped);
    expect(terminalCacheSize().entries).toBeLessThanOrEqual(TERMINAL_CACHE_ENTRIES);
  });
});
