/**
 * Drill: SIGTERM to the server (dist/src/server/server.js) while 30 sessions stream (half learning) and
 * HTTP scoring requests arrive: every session gets its final covering exactly its scored steps and none is
 * learned (the shutdown cut them off), every request the server read an answer, the process exits 0, the
 * data folder opens cleanly. Needs `npm run build`.
 */
import { expect, it } from 'vitest';
import { runShutdownUnderLoad } from '../../bench/drills/shutdown-load.js';
import { ASTROID } from '../server/helpers.js';
import { useAstroidDrill } from './astroid-run.js';

const drill = useAstroidDrill();

it('shutdown under load: every session gets its final, every request an answer, exit 0', async () => {
  const result = await runShutdownUnderLoad({ dataDir: drill.dataDir, task: ASTROID.task, steps: drill.steps, doc: drill.doc, sessions: 30, httpRequests: 6, loadMs: 1200 });
  expect(result.problems).toEqual([]);
  expect(result.finals).toBe(30);
  expect(result.finalsMatching).toBe(30);
  expect(result.learned).toBe(0);
  expect(result.exitCode).toBe(0);
  // Keep-alive connections answered during the shutdown are closed once idle, not held to the 10 s grace.
  expect(result.exitMs).toBeLessThan(9_000);
  expect(result.reopenWarnings).toEqual([]);
  // ECONNRESET: a connection the loaded server had not read yet when it closed its listener (Node's server.close).
  expect(Object.keys(result.http).every((k) => k === '200' || k === '503' || k === 'ECONNRESET')).toBe(true);
}, 120_000);
