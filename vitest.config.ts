/**
 * Three projects (CONTRIBUTING.md, "Tests"):
 *  - `unit`: every test file but the drills, in forked workers that each run many files without re-importing
 *    the sources per file (`isolate: false`: importing src/ and zod again for each of ~140 files cost more
 *    than the tests themselves). Files leave no state behind that another file could see: servers listen on
 *    port 0 and close in afterAll, data goes to fresh temp folders.
 *  - `isolated`: the few files that need a fresh process of their own (see ISOLATED).
 *  - `drills`: the reliability drills of test/drills (heavy, timing-sensitive, one at a time after the rest).
 *    `npm test` leaves them out; `.ci/run` runs them once (`npm run test:drills`), not on every Node it tests.
 * Workers: as many as cores, at least 2: many files wait on child processes (servers, the CLI, npm, Python),
 * so a single worker (vitest's default on 2 cores) leaves a core idle.
 */
import os from 'node:os';
import { defineConfig } from 'vitest/config';
import { SlowFirst } from './test/slow-first.js';

const DRILLS = ['test/drills/**/*.test.ts'];
/** Files that must run in a process of their own. */
// score-tree-memory reads the process's peak RSS (a forked worker reused by other files would carry their peaks).
const ISOLATED: string[] = ['test/cli/score-tree-memory.test.ts'];
const WORKERS = Math.max(2, os.availableParallelism());

export default defineConfig({
  test: {
    // Hang detectors, not speed checks (the benches are those): tests CI runs in 5-16 s under the suite's load took
    // 30 s and more on a machine ~10x as loaded (flake14), and a hook that starts servers is as slow.
    testTimeout: 120_000,
    hookTimeout: 120_000,
    pool: 'forks',
    globalSetup: ['test/global-setup.ts'],
    // Per-file CPU log (test/file-cpu.ts), only when asked for.
    setupFiles: process.env.STEPLENS_FILE_CPU ? ['test/file-cpu.ts'] : [],
    sequence: { sequencer: SlowFirst },
    projects: [
      { extends: true, test: { name: 'unit', include: ['test/**/*.test.ts'], exclude: [...DRILLS, ...ISOLATED], isolate: false, maxWorkers: WORKERS } },
      ...(ISOLATED.length > 0 ? [{ extends: true as const, test: { name: 'isolated', include: ISOLATED, isolate: true, maxWorkers: WORKERS } }] : []),
      { extends: true, test: { name: 'drills', include: DRILLS, isolate: true, maxWorkers: 1, sequence: { groupOrder: 1 } } },
    ],
  },
});
