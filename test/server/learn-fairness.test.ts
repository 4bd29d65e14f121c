/**
 * `serve --forecast-learn` in the `tenant` scope fits one attempt at a time over every scope. A pass tried the scopes
 * in the order of their names, and only those with sessions when it began: a tenant that reports outcomes steadily
 * (a large fit every pass) held another's few outcomes back by one or two of its fits, 6-20 s at 3,000 real sessions
 * (T108). Now the shared scope goes first, then the scope with the fewest rows to fit, each at most once a pass, and a
 * scope that gets an outcome during the pass is tried in it. Order and counts only, no timings.
 */
import { pino } from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { FEATURE_COUNT } from '../../src/core/forecast/features.js';
import type { ForecastFile } from '../../src/core/forecast/model.js';
import { sampleSteps } from '../../src/core/forecast/run.js';
import { ForecastHolder } from '../../src/server/forecast-holder.js';
import { ForecastLearner } from '../../src/server/forecast-learner.js';
import type { Session } from '../../src/server/session.js';
import { forecastFileOf, labelledRuns, type LabelledRun } from '../forecast/fixtures.js';

const runs = labelledRuns();
const fitted = forecastFileOf(runs);
const blind: ForecastFile = { ...fitted, models: [{ ...fitted.models[0]!, weights: fitted.models[0]!.weights.map(() => 0), intercept: -4 }] };
let ids = 0;

/** A finished session of real run `r` with its outcome, as the learner reads it (its sampled rows). */
function session(r: LabelledRun, tenant: string): Session {
  const at = Int32Array.from(sampleSteps(r.length));
  const rows = new Float64Array(at.length * FEATURE_COUNT);
  at.forEach((t, k) => rows.set(r.rows.subarray((t - 1) * FEATURE_COUNT, t * FEATURE_COUNT), k * FEATURE_COUNT));
  const trace = { length: r.length, at, rows };
  return { id: `s${++ids}`, task: r.task, agent: r.agent, model: r.model, passed: r.passed, tenant, principal: { tenant, role: 'agent' }, forecastTrace: () => trace } as unknown as Session;
}

/** A learner of the `tenant` scope and the tenants of its attempts, in the order it logged them. */
function learner() {
  const order: string[] = [];
  const log = pino(
    { level: 'info' },
    {
      write: (line: string) => {
        const { msg, tenant } = JSON.parse(line) as { msg: string; tenant: string };
        if (msg === 'forecast retraining') order.push(tenant);
      },
    },
  );
  const l = new ForecastLearner(new ForecastHolder(blind), { intervalMs: 60_000, scope: 'tenant', minRuns: 4, minClass: 2 }, log);
  return { l, order };
}

let open: ForecastLearner | undefined;
afterEach(() => open?.stop());

describe('forecast learning is fair over tenants (T108)', () => {
  it("fits a tenant's few outcomes before another's flood, whatever their names", async () => {
    const { l, order } = learner();
    open = l;
    // team-a floods (8 copies of every run), team-b reports each run once; team-a sorts first by name.
    for (let k = 0; k < 8; k++) for (const r of runs) l.add(session(r, 'team-a'));
    for (const r of runs) l.add(session(r, 'team-b'));
    await l.tick();
    expect(order).toEqual(['team-b', 'team-a']);
  }, 120_000);

  it('tries a tenant whose outcome comes during a pass in that pass', async () => {
    const { l, order } = learner();
    open = l;
    for (const r of runs) l.add(session(r, 'team-b'));
    await l.tick();
    expect(order).toEqual(['team-b']);
    // team-a's outcome starts a pass; team-b's comes once it has begun.
    l.add(session(runs[0]!, 'team-a'));
    const pass = l.tick();
    l.add(session(runs[1]!, 'team-b'));
    await pass;
    expect(order).toEqual(['team-b', 'team-a', 'team-b']);
    // Nothing left for the next pass.
    await l.tick();
    expect(order).toHaveLength(3);
  }, 120_000);

  it("fits every attempt in the learner's one worker thread, not one started per attempt (T109)", async () => {
    const { l, order } = learner();
    open = l;
    for (const tenant of ['team-a', 'team-b', 'team-c']) {
      for (const r of runs) l.add(session(r, tenant));
      await l.tick();
    }
    expect(order).toEqual(['team-a', 'team-b', 'team-c']);
    expect(l.thread?.started).toBe(1);
  }, 120_000);
});
