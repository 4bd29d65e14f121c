/**
 * `cargo test`: one `test result: ok. N passed; M failed; ...` line per test binary
 * (unit, integration and doc tests), summed; `error: could not compile` is a failed build.
 */
import { LINE } from '../line-shapes.js';
import { num, type RunnerParser, type TestRun } from './types.js';

const RESULT = /^test result: (ok|FAILED)\. (\d+) passed; (\d+) failed;/gm;
// The global patterns are run by `exec` from lastIndex 0 until null (which resets it): `matchAll` copies the pattern each call.
const NO_BUILD = /^error: could not compile /m;

export const cargoParser: RunnerParser = {
  family: 'cargo',
  needs: LINE.cargo,
  parse(text) {
    let found = false;
    const run: TestRun = { passed: 0, failed: 0, errors: 0 };
    RESULT.lastIndex = 0;
    for (let m = RESULT.exec(text); m !== null; m = RESULT.exec(text)) {
      found = true;
      run.passed += num(m[2]);
      run.failed += num(m[3]);
    }
    if (NO_BUILD.test(text)) return { ...run, errors: run.errors + 1, build: 'failure' };
    return found ? run : null;
  },
};
