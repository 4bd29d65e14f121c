/**
 * Drill: 10,000 fast-check frames (and every kept counterexample, bench/drills/fuzz-counterexamples.json)
 * beside a streaming session. Answers are valid and never `internal`; the victim's scores equal a quiet
 * session's and its final the batch report. `node dist/bench/drills.js --only fuzz` runs 100,000.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { runFrameFuzz } from '../../bench/drills/frame-fuzz.js';
import type { Step } from '../../src/core/types.js';
import { ASTROID, readSteps, removeDir, startApp, tempDir, type Running } from '../server/helpers.js';

let dir: string;
let srv: Running;
let steps: Step[];
beforeAll(async () => {
  dir = await tempDir();
  steps = await readSteps(ASTROID.fail);
  srv = await startApp({ dataDir: dir, seedDirs: ['data/example'], tokens: ['victim-token', 'fuzz-token'] });
});
afterAll(async () => {
  await srv.app.close();
  await removeDir(dir);
});

it('10,000 fuzzed frames beside a streaming session change none of its scores', async () => {
  const result = await runFrameFuzz({
    url: srv.wsUrl,
    http: srv.url,
    task: ASTROID.task,
    steps,
    frames: 10_000,
    seed: 19,
    victimToken: 'victim-token',
    fuzzToken: 'fuzz-token',
  });
  expect(result.failure).toBeUndefined();
  expect(result.frames).toBeGreaterThanOrEqual(10_000);
  expect(result.counterexamples).toBeGreaterThanOrEqual(10);
  expect(result.victimSteps).toBe(steps.length);
  expect(result.victimEqual).toBe(true);
  expect(result.finalEqual).toBe(true);
  expect(result.answers['error:internal']).toBeUndefined();
  expect((await fetch(`${srv.url}/healthz`)).status).toBe(200);
}, 120_000);
