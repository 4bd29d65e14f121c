/**
 * Drill: one tenant streams sessions under 150 distinct 256-character agent + model names in shadow mode,
 * each with an outcome. /metrics, the pair table and state.json stay bounded by the table (64 pairs per
 * tenant, 20 labelled by name, labels at most 64 characters) whatever the names; an operator's pin is taken.
 * `node dist/bench/drills.js --only cardinality` runs the trial's 1,200 sessions. Needs `npm run build`.
 */
import { expect, it } from 'vitest';
import { runCardinality } from '../../bench/drills/cardinality.js';
import { ASTROID, readEvents } from '../server/helpers.js';

it('client-chosen names never make unbounded metrics or state', async () => {
  const r = await runCardinality({ sessions: 150, nameLength: 256, task: ASTROID.task, events: (await readEvents(ASTROID.fail)).slice(0, 12) });
  expect(r.pairsHeld).toBe(64);
  expect(r.evicted).toBe(150 - 64);
  expect(r.longestLabel).toBeLessThanOrEqual(64);
  // 20 labelled pairs x (candidates x 5 + 3) + other, plus the fixed metrics: far below the trial's 453k.
  expect(r.metricsSeries).toBeLessThan(20 * (100 * 5 + 3) + 200);
  expect(r.stateBytes).toBeLessThan(64 * 20_000);
  expect(r.pinStatus).toBe(200);
}, 300_000);
