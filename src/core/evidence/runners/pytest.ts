/**
 * pytest. Its summary line, in every verbosity and version: `==== 1 failed, 2 passed in
 * 0.12s ====`, `-q`'s bare `600 passed, 100 skipped, 1 xfailed in 5.43s`, collection
 * errors (`3123 deselected, 3 errors in 3.85s`), pytest < 5's `in 0.02 seconds`, pytest-subtests' `2 subtests failed`
 * (counted as failed). Several
 * summaries in one observation (two runs in one command) are summed. Without a summary
 * (`-q -q`, or cut by `| head`), the progress lines (`..F.s  [ 40%]`) are counted: `.`
 * passed, `F` failed, `E` error.
 */
import { LINE } from '../output-lines.js';
import { num, type RunnerParser, type TestRun } from './types.js';

// pytest-subtests adds `N subtests passed`, `N subtests failed` (a failing subtest fails the run even when its test passed), ...
const PART = String.raw`\d+ (?:subtests )?(?:passed|failed|errors?|skipped|xfailed|xpassed|deselected|warnings?|rerun)`;
const SUMMARY = new RegExp(String.raw`^(?:=+ )?((?:${PART})(?:, ${PART})*) in [\d.]+ ?s(?:econds)?(?: \([^)\n]*\))?(?: =+)?\s*$`, 'gm');
const NO_TESTS = /^(?:=+ )?no tests ran in [\d.]+ ?s(?:econds)?(?: =+)?\s*$/m;
// A progress line: result letters, optionally after a test file's path, then the percentage.
const PROGRESS = /^(?:\S+\.py )?([.sxXFE]+)\s+\[\s*\d+%\]\s*$/gm;

function progress(text: string): TestRun | null {
  let found = false;
  const run: TestRun = { passed: 0, failed: 0, errors: 0 };
  for (const m of text.matchAll(PROGRESS)) {
    found = true;
    for (const c of m[1]!) {
      if (c === '.') run.passed++;
      else if (c === 'F') run.failed++;
      else if (c === 'E') run.errors++;
    }
  }
  return found ? run : null;
}

export const pytestParser: RunnerParser = {
  family: 'pytest',
  needs: LINE.pytest,
  parse(raw) {
    // Colour codes (`--color=yes`, a terminal) would split the words.
    // eslint-disable-next-line no-control-regex -- ANSI colour codes start with the ESC control character
    const text = raw.includes('\u001b[') ? raw.replace(/\u001b\[[\d;]*m/g, '') : raw;
    let found = false;
    const run: TestRun = { passed: 0, failed: 0, errors: 0 };
    {
      for (const m of text.matchAll(SUMMARY)) {
        found = true;
        const parts = m[1]!;
        run.passed += num(/(\d+) passed/.exec(parts)?.[1]);
        run.failed += num(/(\d+) failed/.exec(parts)?.[1]) + num(/(\d+) subtests failed/.exec(parts)?.[1]);
        run.errors += num(/(\d+) errors?\b/.exec(parts)?.[1]);
      }
      if (!found && NO_TESTS.test(text)) return run;
    }
    return found ? run : progress(text);
  },
};
