/**
 * One parse budget a command, its `sh -c` scripts included (docs/reliability.md, T96). Each script had a budget of
 * its own, so a 16 KiB step holding two `bash -c` scripts of error-recovery text took two CPU backstops of every
 * tenant's event loop (~420 ms) where one command's text alone takes one (~220 ms). Counted in tree-sitter's
 * progress checks, not timed: the same on every machine.
 */
import Parser from 'tree-sitter';
import { describe, expect, it, vi } from 'vitest';
import { OPS_PER_CHECK } from '../../src/syntax/parse-budget.js';
import { createShellAnalyzer } from '../../src/syntax/shell-analyzer.js';

type ParseArgs = Parameters<Parser['parse']>;

/** Runs `fn` counting the progress checks tree-sitter asks of every parse, and the parses. */
function counted(fn: () => void): { checks: number; parses: number } {
  let checks = 0;
  let parses = 0;
  // Called with the parser as `this` below: the original, unbound, is what the spy wraps.
  // eslint-disable-next-line @typescript-eslint/unbound-method
  const original = Parser.prototype.parse;
  const spy = vi.spyOn(Parser.prototype, 'parse').mockImplementation(function (this: Parser, input: ParseArgs[0], old?: ParseArgs[1], options?: ParseArgs[2]) {
    parses++;
    const progress = options?.progressCallback;
    const wrapped = progress === undefined ? options : { ...options, progressCallback: (index: number, hasError: boolean) => (checks++, progress(index, hasError)) };
    return original.call(this, input, old, wrapped);
  });
  try {
    fn();
  } finally {
    spy.mockRestore();
  }
  return { checks, parses };
}

const BUDGET_OPS = 2_000;
/**
 * Error recovery text: each script alone runs out of the budget, in a few ms a check (under the CPU backstop: the
 * budget's operations, not the clock, halt it).
 */
const RECOVERY = ')'.repeat(3000);

describe('the parse budget of a command with shell scripts in it', () => {
  it('two scripts of error-recovery text are halted within one budget together, not one each', () => {
    const analyzer = createShellAnalyzer({ parseBudgetOps: BUDGET_OPS });
    const alone = counted(() => analyzer.parse(`${RECOVERY} 1`));
    expect(alone.checks).toBe(BUDGET_OPS / OPS_PER_CHECK + 1); // halted at the first check past the budget
    const nested = counted(() => expect(analyzer.parse(`bash -c '${RECOVERY} 2'; bash -c '${RECOVERY} 3'`).ok).toBe(false));
    expect(nested.parses).toBe(3); // the line, then each script
    // The line's own parse takes a few checks; the first script takes the rest of the budget; the second is halted at its first check.
    expect(nested.checks).toBeLessThanOrEqual(BUDGET_OPS / OPS_PER_CHECK + nested.parses);
  });

  it('a real command with scripts in it parses as before', () => {
    const script = Array.from({ length: 40 }, (_, i) => `grep -rn def_f${i} src/ | head -5`).join('; ');
    const parsed = createShellAnalyzer().parse(`cd /testbed && bash -lc "${script}" && sh -c "${script}" 2>&1 | tail -3`);
    expect(parsed.ok).toBe(true);
    expect(parsed.commands.filter((c) => c.name === 'grep')).toHaveLength(80);
    expect(parsed.commands.at(-1)?.name).toBe('tail');
  });
});
