/**
 * tox and nox, which wrap a test command and print one verdict per environment or
 * session: tox 3 `  py39: commands succeeded` / `ERROR:   py39: commands failed` and
 * `congratulations :)`; tox 4 `  py39: OK (...)` / `  py39: FAIL code 1 (...)` and
 * `evaluation failed :(`; nox `nox > Session tests was successful.` / `nox > Session tests
 * failed.`. They give the build status only: the counts come from the wrapped runner's
 * own summary (pytest's, in the same observation).
 */
import type { RunnerParser } from './types.js';

const FAILURE = /^(?:ERROR:\s+\S+: commands failed|\s+\S+: FAIL code \d+|\s*evaluation failed :\(|nox > Session \S+ failed\.|nox > Session \S+ aborted)/m;
const SUCCESS = /^(?:\s+\S+: commands succeeded|\s+\S+: OK \(|\s*congratulations :\)|nox > Session \S+ was successful\.)/m;

export const toxParser: RunnerParser = {
  family: 'tox',
  parse(text) {
    if (!text.includes('commands ') && !text.includes(': FAIL') && !text.includes(': OK') && !text.includes(' :') && !text.includes('nox > ')) return null;
    if (FAILURE.test(text)) return { passed: 0, failed: 0, errors: 0, build: 'failure' };
    if (SUCCESS.test(text)) return { passed: 0, failed: 0, errors: 0, build: 'success' };
    return null;
  },
};
