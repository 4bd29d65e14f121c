/**
 * JavaScript runners. jest: `Tests:       1 failed, 1 skipped, 2 passed, 4 total` (the
 * `Test Suites:` line counts files, not tests, and is not read). mocha: `N passing (Xms)`,
 * `M failing`. Node's own runner (`node --test`, TAP): `# pass N`, `# fail M`.
 */
import { LINE } from '../output-lines.js';
import { num, type RunnerParser, type TestRun } from './types.js';

const JEST = /^Tests:\s+([^\n]*\d+ total)/gm;
const MOCHA = /^[ \t]*(\d+) (passing|failing)\b/gm;
const TAP = /^# (pass|fail) (\d+)\s*$/gm;

export const jsParser: RunnerParser = {
  family: 'js',
  needs: LINE.js,
  parse(text) {
    let found = false;
    const run: TestRun = { passed: 0, failed: 0, errors: 0 };
    if (text.includes('Tests:')) {
      for (const m of text.matchAll(JEST)) {
        found = true;
        run.passed += num(/(\d+) passed/.exec(m[1]!)?.[1]);
        run.failed += num(/(\d+) failed/.exec(m[1]!)?.[1]);
      }
    }
    if (text.includes('passing') || text.includes('failing')) {
      for (const m of text.matchAll(MOCHA)) {
        found = true;
        if (m[2] === 'passing') run.passed += num(m[1]);
        else run.failed += num(m[1]);
      }
    }
    if (text.includes('# pass') || text.includes('# fail')) {
      for (const m of text.matchAll(TAP)) {
        found = true;
        if (m[1] === 'pass') run.passed += num(m[2]);
        else run.failed += num(m[2]);
      }
    }
    return found ? run : null;
  },
};
