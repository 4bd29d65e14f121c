/**
 * JUnit through Maven (surefire) and Gradle. Maven prints `Tests run: N, Failures: F,
 * Errors: E, Skipped: S` per test class (with `Time elapsed`) and once more under
 * `Results:` (without): the totals are used, the per-class lines only when no total was
 * printed (an interrupted build); several modules' totals are summed. `BUILD SUCCESS` /
 * `BUILD FAILURE` (Maven) and `BUILD SUCCESSFUL` / `BUILD FAILED` (Gradle) give the build
 * status; Gradle's `N tests completed, M failed` gives its counts.
 */
import { LINE } from '../line-shapes.js';
import { num, type RunnerParser, type TestRun } from './types.js';

const TESTS_RUN = /^(?:\[\w+\] )?Tests run: (\d+), Failures: (\d+), Errors: (\d+), Skipped: (\d+)(, Time elapsed)?/gm;
const GRADLE = /^(\d+) tests? completed, (\d+) failed(?:, (\d+) skipped)?/gm;
// The global patterns are run by `exec` from lastIndex 0 until null (which resets it): `matchAll` copies the pattern each call.
const BUILD = /^(?:\[\w+\] )?BUILD (SUCCESS|SUCCESSFUL|FAILURE|FAILED)\b/gm;

export const junitParser: RunnerParser = {
  family: 'junit',
  needs: LINE.junit,
  parse(text) {
    const totals: TestRun = { passed: 0, failed: 0, errors: 0 };
    const perClass: TestRun = { passed: 0, failed: 0, errors: 0 };
    let haveTotals = false;
    let havePerClass = false;
    TESTS_RUN.lastIndex = 0;
    for (let m = TESTS_RUN.exec(text); m !== null; m = TESTS_RUN.exec(text)) {
      const into = m[5] === undefined ? totals : perClass;
      if (m[5] === undefined) haveTotals = true;
      else havePerClass = true;
      into.failed += num(m[2]);
      into.errors += num(m[3]);
      into.passed += Math.max(0, num(m[1]) - num(m[2]) - num(m[3]) - num(m[4]));
    }
    let run: TestRun | null = haveTotals ? totals : havePerClass ? perClass : null;
    GRADLE.lastIndex = 0;
    for (let m = GRADLE.exec(text); m !== null; m = GRADLE.exec(text)) {
      run ??= { passed: 0, failed: 0, errors: 0 };
      run.failed += num(m[2]);
      run.passed += Math.max(0, num(m[1]) - num(m[2]) - num(m[3]));
    }
    let build: TestRun['build'];
    BUILD.lastIndex = 0;
    for (let m = BUILD.exec(text); m !== null; m = BUILD.exec(text)) build = m[1] === 'SUCCESS' || m[1] === 'SUCCESSFUL' ? 'success' : 'failure';
    if (build === undefined) return run;
    return { ...(run ?? { passed: 0, failed: 0, errors: 0 }), build };
  },
};
