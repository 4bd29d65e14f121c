/**
 * tox and nox, which wrap a test command and print one verdict per environment or
 * session: tox 3 `  py39: commands succeeded` / `ERROR:   py39: commands failed` and
 * `congratulations :)`; tox 4 `  py39: OK (...)` / `  py39: FAIL code 1 (...)` and
 * `evaluation failed :(`; nox `nox > Session tests was successful.` / `nox > Session tests
 * failed.`. They give the build status only: the counts come from the wrapped runner's
 * own summary (pytest's, in the same observation).
 */
import { LINE } from '../line-shapes.js';
import type { RunnerParser } from './types.js';

const FAILURE = /^(?:ERROR:[ \t]+[^\s:]+: commands failed|[ \t]+[^\s:]+: FAIL code \d+|[ \t]*evaluation failed :\(|nox > Session \S+ failed\.|nox > Session \S+ aborted)/m;
const SUCCESS = /^(?:[ \t]+[^\s:]+: commands succeeded|[ \t]+[^\s:]+: OK \(|[ \t]*congratulations :\)|nox > Session \S+ was successful\.)/m;

export const toxParser: RunnerParser = {
  family: 'tox',
  needs: LINE.tox,
  parse(text) {
    if (FAILURE.test(text)) return { passed: 0, failed: 0, errors: 0, build: 'failure' };
    if (SUCCESS.test(text)) return { passed: 0, failed: 0, errors: 0, build: 'success' };
    return null;
  },
};
