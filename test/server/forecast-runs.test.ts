/**
 * The learner's kept sessions on disk (src/server/forecast-runs.ts), with real runs: a learner stopped and another
 * started on its directory holds, scope by scope, the very sessions (numbers and feature rows, to the bit) and the
 * same pending attempt as one that never stopped, across drops past `maxRuns` between tenants' scopes; each tenant's
 * file holds its sessions only; feature values JSON has no number for (NaN, −0) come back as they were.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { ForecastHolder } from '../../src/server/forecast-holder.js';
import type { ForecastLearnOptions } from '../../src/server/forecast-learn-options.js';
import { ForecastLearner } from '../../src/server/forecast-learner.js';
import { readRunsFile, runsHeader, RunsLog, type KeptRun } from '../../src/server/forecast-runs.js';
import type { Session } from '../../src/server/session.js';
import { forecastFileOf, labelledRuns, type LabelledRun } from '../forecast/fixtures.js';
import { removeDir, tempDir } from './helpers.js';

const runs = labelledRuns();
const file = forecastFileOf(runs);
const silent = pino({ level: 'silent' });

/** A finished session of `tenant` that reported `run`'s outcome (what the learner reads of a session). */
const session = (run: LabelledRun, tenant: string, id: string): Session =>
  ({
    id,
    task: run.task,
    agent: run.agent,
    model: run.model,
    passed: run.passed,
    tenant,
    principal: { tenant, role: 'agent' },
    forecastTrace: () => ({ length: run.length, at: run.at, rows: run.rows }),
  }) as unknown as Session;

const learner = (dir: string, options: Partial<ForecastLearnOptions> = {}) =>
  new ForecastLearner(new ForecastHolder(file), { intervalMs: 60_000, dir, maxRuns: 5, minRuns: 1000, scope: 'tenant', ...options }, silent);

/** What each tenant's file replays to (after the learner's writes are done). */
async function onDisk(dir: string, l: ForecastLearner, tenants: string[]) {
  await l.stop();
  const out: Record<string, { runs: Array<{ n: number; id: string; rows: number[] }>; pending: boolean } | undefined> = {};
  for (const t of tenants) {
    const read = await readRunsFile(path.join(dir, 'tenants', t, 'runs.jsonl'), runsHeader(new ForecastHolder(file).base, 'tenant', t), silent);
    out[t] = read && { runs: read.runs.map((r) => ({ n: r.n, id: r.id, rows: [...r.rows] })), pending: read.pending };
  }
  return out;
}

describe('the learner keeps its sessions across restarts', () => {
  it('drops past maxRuns between scopes, then a restart: the same sessions per scope, to the bit, and the same pending attempt', async () => {
    const once = await tempDir();
    const twice = await tempDir();
    try {
      // Tenants b then a then c; ties between b and a at the bound (the older oldest goes), attempts in between.
      const plan: Array<[string, number]> = [
        ['team-b', 0],
        ['team-b', 1],
        ['team-a', 2],
        ['team-a', 3],
        ['team-c', 4],
        ['team-a', 5],
        ['team-b', 6],
        ['team-c', 7],
        ['team-c', 8],
        ['team-b', 9],
        ['team-a', 10],
        ['team-c', 11],
      ];
      const half = 7;
      const run = async (l: ForecastLearner, from: number, to: number) => {
        for (const [i, [tenant, k]] of plan.entries()) {
          if (i < from || i >= to) continue;
          l.add(session(runs[k]!, tenant, `s-${i}`));
          if (i % 3 === 1) await l.tick();
        }
      };
      const a = learner(once);
      await run(a, 0, plan.length);
      const b1 = learner(twice);
      await run(b1, 0, half);
      await b1.stop();
      const b2 = learner(twice);
      await b2.restore(false);
      await run(b2, half, plan.length);
      const tenants = ['team-a', 'team-b', 'team-c'];
      for (const t of tenants) expect(b2.sessions(t)).toBe(a.sessions(t));
      expect(b2.total).toBe(5);
      const want = await onDisk(once, a, tenants);
      expect(await onDisk(twice, b2, tenants)).toEqual(want);
      expect(want['team-c']!.pending).toBe(true);
      expect(want['team-c']!.runs.map((r) => r.id)).toEqual(['s-8', 's-11']);
      // A tenant's file holds its sessions only (every line ever written to it).
      for (const t of tenants) {
        const text = await readFile(path.join(twice, 'tenants', t, 'runs.jsonl'), 'utf8');
        const ids = text.split('\n').flatMap((l) => (l.includes('"kind":"run"') ? [(JSON.parse(l) as { id: string }).id] : []));
        expect(ids.every((id) => plan[Number(id.slice(2))]![0] === t)).toBe(true);
      }
      // Restored with its pending attempt: one is made without a new session, on the same sessions as without the restart.
      await a.tick();
      await b2.tick();
      const last = (l: ForecastLearner) =>
        l
          .attempts('team-c')
          .filter((x) => x.tenant === 'team-c')
          .at(-1);
      expect(last(b2)).toEqual(expect.objectContaining({ sessions: last(a)!.sessions, result: last(a)!.result, reason: last(a)!.reason }));
    } finally {
      await removeDir(once);
      await removeDir(twice);
    }
  });

  it('feature values JSON has no number for come back as they were', async () => {
    const dir = await tempDir();
    try {
      const real = runs[0]!;
      const rows = Float64Array.from(real.rows);
      rows[0] = NaN;
      rows[1] = -0;
      rows[2] = Infinity;
      const kept: KeptRun = { ...real, rows, n: 1 };
      const header = runsHeader(new ForecastHolder(file).base, 'shared', undefined);
      const log = new RunsLog(path.join(dir, 'runs.jsonl'), header, silent);
      log.record([], [kept], true);
      await log.flush();
      const read = await readRunsFile(path.join(dir, 'runs.jsonl'), header, silent);
      expect(read!.runs).toHaveLength(1);
      const back = read!.runs[0]!;
      expect(Object.is(back.rows[0], NaN) && Object.is(back.rows[1], -0) && back.rows[2] === Infinity).toBe(true);
      expect([...back.rows]).toEqual([...rows]);
      expect([...back.at]).toEqual([...real.at]);
      expect(read!.pending).toBe(true);
    } finally {
      await removeDir(dir);
    }
  });
});
