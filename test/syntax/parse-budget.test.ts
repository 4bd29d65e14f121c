/**
 * One bash parse is bounded: tree-sitter-bash's error recovery is superlinear (16 KiB of `a|a|...|` took seconds),
 * and the event loop it holds is every tenant's. It sees at most 256 operators, and a parse over its operation budget
 * counts as unparsed (the parser then goes on with the next command from scratch).
 */
import Parser from 'tree-sitter';
import { describe, expect, it, vi } from 'vitest';
import { createShellAnalyzer } from '../../src/syntax/shell-analyzer.js';
import { cpuMs } from '../cpu-clock.js';

const HOSTILE = `echo 1|${'a|'.repeat(8150)}`;
const REAL = 'cd /testbed && python -m pytest tests/test_x.py -q 2>&1 | tail -20';

describe('the parse budget', () => {
  it('halts a parse over the budget: no commands, not ok; the next command parses as if nothing happened', () => {
    const halted = createShellAnalyzer({ parseBudgetOps: 0 });
    expect(halted.parse(`${REAL}\n`.repeat(200))).toEqual({ commands: [], ok: false });
    expect(halted.parse(REAL)).toEqual(createShellAnalyzer().parse(REAL));
  });

  it('a long real command stays within the default budget', () => {
    const long = Array.from({ length: 60 }, (_, i) => `grep -rn "def f${i}" src/ | head -20 && python -c "print(${i})" 2>&1`).join('\n');
    const parsed = createShellAnalyzer().parse(long);
    expect(parsed.ok).toBe(true);
    expect(parsed.commands.filter((c) => c.name === 'grep')).toHaveLength(60);
  });

  // A guard against catastrophic parse time, not a speed target: the old code took 2.5-7 s on each of these; the
  // first also ran 2-3 s past the time budget alone (error recovery calls no progress callback).
  it('hostile 16 KiB chains cost tens of ms, not seconds', () => {
    for (const hostile of [HOSTILE, `echo 1 |${'a |'.repeat(5400)}`, '(a)|'.repeat(4090), '<<a|'.repeat(4090)]) {
      const started = cpuMs();
      expect(createShellAnalyzer().parse(hostile).ok).toBe(false);
      expect(cpuMs() - started).toBeLessThan(1500);
    }
  });

  // tree-sitter reads a NUL as the end of input: a run of them cost about its length squared (16 KiB: 1.0-1.1 s) and
  // asked the progress callback nothing. No shell receives a NUL (argv and `-c` scripts are C strings).
  it('a NUL ends the command: tree-sitter never sees one, and the parse is marked cut', () => {
    const parse = vi.spyOn(Parser.prototype, 'parse');
    try {
      const analyzer = createShellAnalyzer();
      const cut = analyzer.parse(`${REAL}\0${'\0'.repeat(16 * 1024)}`);
      expect(cut).toEqual({ ...createShellAnalyzer().parse(REAL), ok: false });
      expect(analyzer.parse('\0'.repeat(16 * 1024))).toEqual({ commands: [], ok: false });
      const seen = parse.mock.calls.map(([input]) => input);
      expect(seen.length).toBeGreaterThan(0);
      for (const input of seen) expect(typeof input === 'string' && input.includes('\0')).toBe(false);
    } finally {
      parse.mockRestore();
    }
  });
});
