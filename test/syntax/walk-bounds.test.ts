/**
 * The bash walk reads a bounded part of what tree-sitter gives it: a command's first MAX_COMMAND_CHILDREN children
 * (16 KiB of `a a a ...`, what the parser sees of a 900 KB command, is one command of 8,192 words: each a binding
 * object, 50-150 ms on the loop every session shares), and of a list of statements only those the node budget lets
 * it visit. A cut walk keeps what it read and says the parse is not ok. Counts, not time, are asserted.
 */
import { describe, expect, it } from 'vitest';
import { createShellAnalyzer } from '../../src/syntax/shell-analyzer.js';
import { MAX_COMMAND_CHILDREN, MAX_WALK_NODES } from '../../src/syntax/shell-walk.js';

/** The parse's operation budget is another bound (parse-budget.test.ts): off here: these tests bound the walk. */
const NO_BUDGET = { parseBudgetOps: Infinity };

describe('the bash walk is bounded', () => {
  it('reads at most MAX_COMMAND_CHILDREN words of one command, and says it was cut', () => {
    const parsed = createShellAnalyzer(NO_BUDGET).parse(Array.from({ length: 450_000 }, () => 'a').join(' '));
    expect(parsed.ok).toBe(false);
    expect(parsed.commands).toHaveLength(1);
    expect(parsed.commands[0]!.name).toBe('a');
    expect(parsed.commands[0]!.args.length).toBeLessThan(MAX_COMMAND_CHILDREN);
  });

  it('a command within the bound is read whole (its name and MAX_COMMAND_CHILDREN - 1 words), its redirect too', () => {
    const words = Array.from({ length: MAX_COMMAND_CHILDREN - 1 }, (_, i) => `w${i}`);
    const parsed = createShellAnalyzer(NO_BUDGET).parse(`echo ${words.join(' ')} > out.txt`);
    expect(parsed.ok).toBe(true);
    expect(parsed.commands[0]!.args).toEqual(words);
    expect(parsed.commands[0]!.writes).toEqual(['out.txt']);
    const over = createShellAnalyzer(NO_BUDGET).parse(`echo ${words.join(' ')} w > out.txt`);
    expect(over.ok).toBe(false);
    expect(over.commands[0]!.args).toEqual(words);
  });

  it('of 5,000 statements, the walk reads those its node budget visits, in order', () => {
    const parsed = createShellAnalyzer(NO_BUDGET).parse('ls a\n'.repeat(5000));
    expect(parsed.ok).toBe(false);
    expect(parsed.commands.length).toBe(MAX_WALK_NODES - 1);
    expect(parsed.commands.every((c) => c.name === 'ls' && c.args[0] === 'a')).toBe(true);
  });
});
