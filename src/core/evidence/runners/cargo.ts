/**
 * `cargo test`: one `test result: ok. N passed; M failed; ...` line per test binary
 * (unit, integration and doc tests), summed; `error: could not compile` is a failed build.
 */
import { LINE } from '../output-lines.js';
import { num, type RunnerParser, type TestRun } from './types.js';

const RESULT = /^test result: (ok|FAILED)\. (\d+) passed; (\d+) failed;/gm;
const NO_BUILD = /^error: could not compile /m;

export const cargoParser: RunnerParser = {
  family: 'cargo',
  needs: LINE.cargo,
  parse(text) {
    let found = false;
    const run: TestRun = { passed: 0, failed: 0, errors: 0 };
    for (const m of text.matchAll(RESULT)) {
      found = true;
      run.passed += num(m[2]);
      run.failed += num(m[3]);
    }
    if (NO_BUILD.test(text)) return { ...run, errors: run.errors + 1, build: 'failure' };
    return found ? run : null;
  },
};
