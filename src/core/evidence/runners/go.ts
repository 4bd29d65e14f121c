/**
 * `go test`: per-test `--- PASS:` / `--- FAIL:` lines (with `-v`, or a failing test's
 * report), and per-package `ok  \tpkg\t0.02s` / `FAIL\tpkg\t0.02s` lines. Tests are
 * counted where the output names them; a package line counts one when it does not
 * (plain `go test` prints only packages). `[build failed]` / `[setup failed]` packages
 * are errors and a failed build.
 */
import { LINE } from '../line-shapes.js';
import type { RunnerParser, TestRun } from './types.js';

const CASE = /^[ \t]*--- (PASS|FAIL): \S/gm;
// Run by `exec` from lastIndex 0 until null (which resets it): `matchAll` copies the pattern each call.
const PACKAGE = /^(ok|FAIL)\s+\S+\s+(?:[\d.]+s|\(cached\)|\[(build|setup) failed\])/gm;

export const goParser: RunnerParser = {
  family: 'go',
  needs: LINE.go,
  parse(text) {
    let casePass = 0;
    let caseFail = 0;
    CASE.lastIndex = 0;
    for (let m = CASE.exec(text); m !== null; m = CASE.exec(text)) {
      if (m[1] === 'PASS') casePass++;
      else caseFail++;
    }
    let pkgOk = 0;
    let pkgFail = 0;
    let broken = 0;
    PACKAGE.lastIndex = 0;
    for (let m = PACKAGE.exec(text); m !== null; m = PACKAGE.exec(text)) {
      if (m[2] !== undefined) broken++;
      else if (m[1] === 'ok') pkgOk++;
      else pkgFail++;
    }
    if (casePass + caseFail + pkgOk + pkgFail + broken === 0) return null;
    const run: TestRun = { passed: casePass + caseFail > 0 ? casePass : pkgOk, failed: casePass + caseFail > 0 ? caseFail : pkgFail, errors: broken };
    return broken > 0 ? { ...run, build: 'failure' } : run;
  },
};
