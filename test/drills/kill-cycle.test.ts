/**
 * Drill: the server (dist/src/server/server.js) killed with SIGKILL while it grows PTAs, restarted on the
 * same folder: no acknowledged reference lost, no broken file, no temporary file left.
 * `node dist/bench/drills.js --only kill` runs 12 cycles. Needs `npm run build`.
 */
import { expect, it } from 'vitest';
import { runKillCycles } from '../../bench/drills/kill-cycle.js';
import { useAstroidDrill } from './astroid-run.js';

const drill = useAstroidDrill();

it('kill -9 during PTA growth loses nothing acknowledged and leaves only valid files', async () => {
  const result = await runKillCycles({ dataDir: drill.dataDir, cycles: 3, doc: drill.doc, steps: drill.steps, tasks: ['task-a', `long-${'x'.repeat(240)}`], minMs: 300, maxMs: 900 });
  expect(result.cycles).toBe(3);
  expect(result.acknowledged).toBeGreaterThan(0);
  expect(result.lost).toEqual([]);
  expect(result.warnings).toEqual([]);
  expect(result.movedAside).toBe(0);
}, 120_000);
