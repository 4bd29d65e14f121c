/**
 * pytest. Its summary line, in every verbosity and version: `==== 1 failed, 2 passed in
 * 0.12s ====`, `-q`'s bare `600 passed, 100 skipped, 1 xfailed in 5.43s`, collection
 * errors (`3123 deselected, 3 errors in 3.85s`), pytest < 5's `in 0.02 seconds`, pytest-subtests' `2 subtests failed`
 * (counted as failed). Several
 * summaries in one observation (two runs in one command) are summed. Without a summary
 * (`-q -q`, or cut by `| head`), the progress lines (`..F.s  [ 40%]`) are counted: `.`
 * passed, `F` failed, `E` error.
 */
import { LINE } from '../line-shapes.js';
import { num, type RunnerParser, type TestRun } from './types.js';

// pytest-subtests adds `N subtests passed`, `N subtests failed` (a failing subtest fails the run even when its test passed), ...
const PART = String.raw`\d+ (?:subtests )?(?:passed|failed|errors?|skipped|xfailed|xpassed|deselected|warnings?|rerun)`;
// A summary up to its duration; what follows it (a wall time in parentheses, the closing `===`) is read by pytestSummaries.
const HEAD = new RegExp(String.raw`^(?:=+ )?((?:${PART})(?:, ${PART})*) in [\d.]+ ?s(?:econds)?`, 'gm');
const TAIL = /(?: =+)?\s*$/my;
const NO_TESTS = /^(?:=+ )?no tests ran in [\d.]+ ?s(?:econds)?(?: =+)?\s*$/m;
// A progress line: result letters, optionally after a test file's path, then the percentage.
const PROGRESS = /^(?:\S+\.py )?([.sxXFE]+)\s+\[\s*\d+%\]\s*$/gm;
// A count is tried from the start of its run of digits only (a match can always start there): a long run of digits not
// followed by the word is then not rescanned from each of its positions (16 KiB of digits before `failed`: 0.4 s).
export const PASSED = /(?<!\d)(\d+) passed/;
export const FAILED = /(?<!\d)(\d+) failed/;
export const SUBTESTS_FAILED = /(?<!\d)(\d+) subtests failed/;
export const ERRORS = /(?<!\d)(\d+) errors?\b/;

/** The end of `TAIL` read at `at`, -1 when it does not match there. */
function tailEnd(text: string, at: number): number {
  TAIL.lastIndex = at;
  return TAIL.test(text) ? TAIL.lastIndex : -1;
}

/**
 * Each pytest summary line, as `^(?:=+ )?(PARTS) in [\d.]+ ?s(?:econds)?(?: \([^)\n]*\))?(?: =+)?\s*$` (global,
 * multiline) finds them: its index, its counts (PARTS) and its end, in order. Written out rather than as that pattern,
 * whose `^` also matches after `\r`, U+2028 and U+2029, which `[^)\n]*` steps over: from every summary after a `\r`
 * it rescanned the line to its first `)` (16 KiB of `1 passed in 1s (\r` 8 ms, 64 KiB 0.13 s). Up to its duration a
 * summary matches in one way only (a shorter count or list is followed by a digit or `, `, not by ` in `); after it,
 * the pattern tries the parenthesis, which can only end at the first `)` (if no newline comes first), then nothing.
 * Every summary before the same `)` reads the same text after it: that is read once. Linear. `from`: where to start,
 * a position no summary starts before (a line start: the pattern's `^` holds there).
 */
export function pytestSummaries(text: string, each: (index: number, parts: string, end: number) => void, from = 0): void {
  const n = text.length;
  // The first `)` and the first newline at or after where each was last searched for (n: none).
  let close = -1;
  let newline = -1;
  // The `)` whose tail was read last, and that tail's end.
  let readAt = -1;
  let readEnd = -1;
  HEAD.lastIndex = from;
  for (let m = HEAD.exec(text); m !== null; m = HEAD.exec(text)) {
    const after = HEAD.lastIndex;
    let end = -1;
    if (text.startsWith(' (', after)) {
      if (close < after + 2) close = text.indexOf(')', after + 2);
      if (close < 0) close = n;
      if (newline < after + 2) newline = text.indexOf('\n', after + 2);
      if (newline < 0) newline = n;
      if (close < newline) {
        if (readAt !== close) readEnd = tailEnd(text, (readAt = close) + 1);
        end = readEnd;
      }
    }
    if (end < 0) end = tailEnd(text, after);
    if (end < 0) {
      HEAD.lastIndex = m.index + 1; // where the pattern would try next
      continue;
    }
    each(m.index, m[1]!, end);
    HEAD.lastIndex = end;
  }
}

function progress(text: string): TestRun | null {
  let found = false;
  const run: TestRun = { passed: 0, failed: 0, errors: 0 };
  // exec from lastIndex 0 until null (which resets it): `matchAll` copies the pattern on every call.
  PROGRESS.lastIndex = 0;
  for (let m = PROGRESS.exec(text); m !== null; m = PROGRESS.exec(text)) {
    found = true;
    for (const c of m[1]!) {
      if (c === '.') run.passed++;
      else if (c === 'F') run.failed++;
      else if (c === 'E') run.errors++;
    }
  }
  return found ? run : null;
}

/** Whether `c` occurs in `text` before `end`. */
const before = (text: string, c: string, end: number): boolean => {
  const i = text.indexOf(c);
  return i >= 0 && i < end;
};

/**
 * Where the summaries can be looked for from: the scan's first summary line (`summaryFrom`, output-lines.ts
 * `ScanAt`) when it speaks of this very text, else 0. The scan's lines start after `\n` only; the pattern's `^` also
 * after `\r`, U+2028 and U+2029, so with one of them before that line the whole text is read, as without a scan.
 */
function summaryStart(raw: string, text: string, summaryFrom: number): number {
  if (summaryFrom <= 0 || text !== raw) return 0;
  return before(text, '\r', summaryFrom) || before(text, '\u2028', summaryFrom) || before(text, '\u2029', summaryFrom) ? 0 : summaryFrom;
}

export const pytestParser: RunnerParser = {
  family: 'pytest',
  needs: LINE.pytest,
  parse(raw, summaryFrom = 0) {
    // Colour codes (`--color=yes`, a terminal) would split the words.
    // eslint-disable-next-line no-control-regex -- ANSI colour codes start with the ESC control character
    const text = raw.includes('\u001b[') ? raw.replace(/\u001b\[[\d;]*m/g, '') : raw;
    let found = false;
    const run: TestRun = { passed: 0, failed: 0, errors: 0 };
    // The summary pattern tried from the first line the scan saw one start (it would try every position before).
    pytestSummaries(
      text,
      (_, parts) => {
        found = true;
        run.passed += num(PASSED.exec(parts)?.[1]);
        run.failed += num(FAILED.exec(parts)?.[1]) + num(SUBTESTS_FAILED.exec(parts)?.[1]);
        run.errors += num(ERRORS.exec(parts)?.[1]);
      },
      summaryStart(raw, text, summaryFrom),
    );
    if (!found && NO_TESTS.test(text)) return run;
    return found ? run : progress(text);
  },
};
