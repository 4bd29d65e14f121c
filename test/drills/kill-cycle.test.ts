/**
 * Drill: the server (dist/src/server/server.js) killed with SIGKILL while it grows PTAs, restarted on the
 * same folder: no acknowledged reference lost, no broken file, no temporary file left.
 * `node dist/bench/drills.js --only kill` runs 12 cycles. Needs `npm run build`.
 */
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { runKillCycles } from '../../bench/drills/kill-cycle.js';
import type { Step } from '../../src/core/types.js';
import { ASTROID, readDoc, readSteps, removeDir, tempDir } from '../server/helpers.js';

let dir: string;
let steps: Step[];
let doc: unknown;
beforeAll(async () => {
  dir = await tempDir();
  steps = await readSteps(ASTROID.passA);
  doc = await readDoc(ASTROID.passA);
});
afterAll(async () => removeDir(dir));

it('kill -9 during PTA growth loses nothing acknowledged and leaves only valid files', async () => {
  const result = await runKillCycles({ dataDir: path.join(dir, 'data'), cycles: 3, doc, steps, tasks: ['task-a', `long-${'x'.repeat(240)}`], minMs: 300, maxMs: 900 });
  expect(result.cycles).toBe(3);
  expect(result.acknowledged).toBeGreaterThan(0);
  expect(result.lost).toEqual([]);
  expect(result.warnings).toEqual([]);
  expect(result.movedAside).toBe(0);
}, 120_000);
