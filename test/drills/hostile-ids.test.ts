/**
 * Drill: 60 hostile ids (traversal, reserved names, our own file-name patterns, NUL, unpaired surrogates,
 * 257 characters, prototype names...) on every route that takes a task or session id, over HTTP and
 * WebSocket: only successes and catalogue errors, nothing written outside the data folder, only valid PTAs in it.
 */
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { runHostileIds } from '../../bench/drills/hostile-ids.js';
import { ASTROID, readDoc, removeDir, startApp, tempDir, type Running } from '../server/helpers.js';

let sandbox: string;
let srv: Running;
beforeAll(async () => {
  sandbox = await tempDir();
  await mkdir(path.join(sandbox, 'data'));
  srv = await startApp({ dataDir: path.join(sandbox, 'data') });
});
afterAll(async () => {
  await srv.app.close();
  await removeDir(sandbox);
});

it('hostile ids on every route get catalogue answers and write nothing outside the data folder', async () => {
  const result = await runHostileIds({ http: srv.url, ws: srv.wsUrl, dataDir: path.join(sandbox, 'data'), doc: await readDoc(ASTROID.passA) });
  expect(result.problems).toEqual([]);
  expect(result.outside).toEqual([]);
  expect(result.reopenWarnings).toEqual([]);
  expect(result.requests).toBeGreaterThan(600);
  expect(result.files).toBeGreaterThan(0);
}, 120_000);
