/**
 * Drill: the server (dist/src/server/server.js) killed with SIGKILL while it grows PTAs, restarted on the
 * same folder: no acknowledged reference lost, no broken file, no temporary file left.
 * `node dist/bench/drills.js --only kill` runs 12 cycles. Needs `npm run build`. Each kill comes 0.3-0.9 s after the
 * cycle's first acknowledged reference, so a loaded machine (a fresh process's first one: 0.6 s at a load of 8) still
 * has something to check.
 */
import { expect, it } from 'vitest';
import { runKillCycles } from '../../bench/drills/kill-cycle.js';
import { useAstroidDrill } from './astroid-run.js';

const drill = useAstroidDrill();

it('kill -9 during PTA growth loses nothing acknowledged and leaves only valid files', async () => {
  const result = await runKillCycles({ dataDir: drill.dataDir, cycles: 3, doc: drill.doc, steps: drill.steps, tasks: ['task-a', `long-${'x'.repeat(240)}`], minMs: 300, maxMs: 900, from: 'firstAck' });
  expect(result.cycles).toBe(3);
  expect(result.acknowledged).toBeGreaterThan(0);
  expect(result.lost).toEqual([]);
  expect(result.warnings).toEqual([]);
  expect(result.movedAside).toBe(0);
}, 120_000);
