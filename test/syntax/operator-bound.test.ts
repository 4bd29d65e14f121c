/**
 * A huge shell line is parsed by a bounded prefix: at most MAX_OPERATORS operators (`|`, `&`, `;`) reach tree-sitter,
 * so a 1 MB step of `echo a && ...` or `cat a | grep b | ...` yields a bounded tree, walk and command list (each
 * operator adds a command or a stage; at 1,024 such a step cost ~100 ms of server CPU, docs/reliability.md T102).
 * Bytes parsed and commands found are counted, never timed. Real commands are far below the bound: each is parsed whole.
 */
import Parser from 'tree-sitter';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { corpusRuns } from '../fixtures/corpus-runs.js';
import { createShellAnalyzer, MAX_ALL_OPERATORS, MAX_OPERATORS, parsedPart } from '../../src/syntax/shell-analyzer.js';

/** Characters each `Parser.parse` call of `run` was given. */
function parsedChars(run: () => void): number[] {
  const seen: number[] = [];
  // Called with the parser as `this` below: the original, unbound, is what the spy wraps.
  // eslint-disable-next-line @typescript-eslint/unbound-method
  const original = Parser.prototype.parse;
  vi.spyOn(Parser.prototype, 'parse').mockImplementation(function (this: Parser, input, ...rest) {
    if (typeof input === 'string') seen.push(input.length);
    return original.call(this, input, ...rest);
  });
  run();
  return seen;
}

afterEach(() => vi.restoreAllMocks());

describe('a shell line is parsed by at most MAX_OPERATORS operators', () => {
  it.each([
    ['echo a && ', 2],
    ['cat a | grep b | ', 2],
    ['ls a; ', 1],
  ])('1 MB of %j: a bounded prefix parsed, a bounded list of commands, not ok', (unit, opsPerUnit) => {
    const command = unit.repeat(Math.ceil(1_000_000 / unit.length));
    let parsed: ReturnType<ReturnType<typeof createShellAnalyzer>['parse']> | undefined;
    const chars = parsedChars(() => (parsed = createShellAnalyzer().parse(command)));
    expect(chars).toHaveLength(1);
    // The prefix holds MAX_OPERATORS operators (old code: 1,024, so 4x these bytes and commands).
    expect(chars[0]).toBeLessThanOrEqual((256 / opsPerUnit + 1) * unit.length);
    expect(parsed!.commands.length).toBeLessThanOrEqual(257); // old code: 512-1,024
    expect(parsed!.commands.length).toBeGreaterThan(8);
    expect(parsed!.ok).toBe(false);
  });

  it('the bound is 256, and a line of 256 operators is parsed whole', () => {
    expect(MAX_OPERATORS).toBe(256);
    const line = 'echo a && '.repeat(128) + 'echo b';
    expect(parsedPart(line)).toBe(line);
    expect(createShellAnalyzer().parse(line).commands).toHaveLength(129);
  });

  it('a heredoc body is text, not statements: a 300-line C file written with cat <<EOF, then built, is parsed whole', () => {
    const body = Array.from({ length: 300 }, (_, i) => `int x${i} = ${i};`).join('\n');
    for (const [open, close] of [
      ["<<'EOF'", 'EOF'],
      ['<< "END_C"', 'END_C'],
      ['<<-EOF', '\t\tEOF'],
    ] as const) {
      const command = `cat ${open} > src/main.c\n${body}\n${close}\ngcc src/main.c && ./a.out`;
      expect(parsedPart(command)).toBe(command); // T102's first bound cut it after 256 of the body's semicolons
      const parsed = createShellAnalyzer().parse(command);
      expect(parsed.ok).toBe(true);
      expect(parsed.commands.map((c) => c.name)).toEqual(['cat', 'gcc', './a.out']);
      expect(parsed.commands[0]!.writes).toEqual(['src/main.c']);
    }
  });

  it('what only looks like a heredoc is bounded as before T102: at most MAX_ALL_OPERATORS operators', () => {
    expect(MAX_ALL_OPERATORS).toBe(1024);
    const command = 'echo "<<E"\n' + 'a|'.repeat(2000);
    const part = parsedPart(command);
    expect(part.length).toBeLessThan(command.length);
    expect([...part].filter((c) => c === '|').length).toBe(MAX_ALL_OPERATORS);
    // An operator after the heredoc's closing line counts towards MAX_OPERATORS again.
    const after = 'cat <<E\nE\n' + 'a|'.repeat(300);
    expect([...parsedPart(after)].filter((c) => c === '|').length).toBe(MAX_OPERATORS);
  });

  it('every real shell command of the corpus fixtures is parsed whole (labels unchanged)', () => {
    let commands = 0;
    let longest = 0;
    for (const run of corpusRuns()) {
      for (const step of run.steps) {
        if (step.action.kind !== 'shell') continue;
        commands++;
        longest = Math.max(longest, step.action.command.length);
        expect(parsedPart(step.action.command)).toBe(step.action.command);
      }
    }
    expect(commands).toBeGreaterThan(500);
    expect(longest).toBeGreaterThan(1000);
  });
});
