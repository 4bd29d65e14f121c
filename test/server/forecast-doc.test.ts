/**
 * `GET /v1/forecast`'s answer kept per view (T46): the same bytes as the document built per request, rebuilt when a
 * version is put in force, an attempt is recorded or the count of sessions kept changes, and the very same bytes
 * (one build) for every request in between.
 */
import { describe, expect, it } from 'vitest';
import { ForecastDocs } from '../../src/server/forecast-doc.js';
import { ForecastHolder } from '../../src/server/forecast-holder.js';
import type { ForecastLearner, LearnAttempt } from '../../src/server/forecast-learner.js';
import { forecastFileOf, labelledRuns } from '../forecast/fixtures.js';

const file = forecastFileOf(labelledRuns());

/** The parts of a learner the document reads, changed by hand. */
class FakeLearner {
  scope: 'tenant' | 'shared' = 'tenant';
  attemptsRevision = 0;
  kept = new Map<string, number>();
  list: LearnAttempt[] = [];
  sessions(tenant?: string): number {
    return this.kept.get(tenant ?? '') ?? 0;
  }
  attempts(tenant?: string): LearnAttempt[] {
    return this.list.filter((a) => a.tenant === undefined || a.tenant === tenant);
  }
  record(a: LearnAttempt): void {
    this.list.push(a);
    this.attemptsRevision++;
  }
}

/** The document as the route built it per request before (forecast-routes.ts at 7f58c62). */
function reference(holder: ForecastHolder, learner: FakeLearner | undefined, view: string | undefined, operator: boolean): string {
  const f = holder.fileFor(view);
  return JSON.stringify({
    enabled: true,
    version: f.version,
    models: f.models.map((m) => ({ match: m.match, trainedOn: m.trainedOn, calibration: m.calibration, ...(m.recalibrated !== undefined ? { recalibrated: m.recalibrated } : {}) })),
    history: holder.historyOf(view),
    learning:
      learner !== undefined
        ? {
            scope: learner.scope,
            sessions: learner.sessions(view),
            attempts: learner.attempts(view),
            ...(operator && learner.scope === 'tenant' ? { tenants: holder.tenants } : {}),
          }
        : null,
  });
}

const asLearner = (l: FakeLearner) => l as unknown as ForecastLearner;

describe('GET /v1/forecast kept per view', () => {
  it('gives the bytes of the document built per request, through every kind of change', () => {
    const holder = new ForecastHolder(file);
    const learner = new FakeLearner();
    const docs = new ForecastDocs(holder, asLearner(learner));
    const check = () => {
      for (const [view, operator] of [
        ['team-b', false],
        ['team-a', false],
        [undefined, true],
        ['team-b', true],
      ] as const)
        expect(docs.bytes(view, operator).toString()).toBe(reference(holder, learner, view, operator));
    };
    check();
    learner.kept.set('team-b', 3);
    check();
    learner.record({ at: '2026-12-05T00:00:00.000Z', sessions: 3, result: 'skipped', reason: 'too few "sessions"\n', tenant: 'team-b' });
    check();
    holder.swap({ ...file, models: [{ ...file.models[0]!, match: { agent: 'made-up' } }, ...file.models] }, { source: 'learned', sessions: 3 }, 'team-b');
    check();
    holder.swap({ ...file }, { source: 'learned', sessions: 9 });
    learner.kept.set('', 9);
    check();
    learner.scope = 'shared';
    const shared = new ForecastDocs(holder, asLearner(learner));
    expect(shared.bytes(undefined, true).toString()).toBe(reference(holder, learner, undefined, true));
    const none = new ForecastDocs(holder, undefined);
    expect(none.bytes('team-a', false).toString()).toBe(reference(holder, undefined, 'team-a', false));
  });

  it('says whether the file in force has an end-of-run model (what rankModel "end" needs), and keeps saying so after a learned version', () => {
    expect(JSON.parse(new ForecastDocs(new ForecastHolder(file), undefined).bytes(undefined, false).toString())).not.toHaveProperty('endModel');
    const end = { tables: { stepCount: { values: [1, 2], counts: [3, 4] }, editCount: { values: [0], counts: [7] } }, models: file.models };
    const holder = new ForecastHolder({ ...file, end });
    const docs = new ForecastDocs(holder, undefined);
    const read = () => (JSON.parse(docs.bytes('team-b', false).toString()) as { endModel?: unknown }).endModel;
    expect(read()).toEqual({ models: file.models.length, features: 2 });
    holder.swap({ ...holder.fileFor('team-b') }, { source: 'learned', sessions: 3 }, 'team-b');
    expect(read()).toEqual({ models: file.models.length, features: 2 });
  });

  it('sends the same bytes until a change, serialising the heavy parts once per version or attempt', () => {
    const holder = new ForecastHolder(file);
    const learner = new FakeLearner();
    const docs = new ForecastDocs(holder, asLearner(learner));
    const first = docs.bytes('team-b', false);
    for (let i = 0; i < 32; i++) expect(docs.bytes('team-b', false)).toBe(first);
    expect([docs.partsBuilt, docs.joined]).toEqual([1, 1]);
    // A session kept: joined again, the parts reused.
    learner.kept.set('team-b', 1);
    const second = docs.bytes('team-b', false);
    expect(second).not.toBe(first);
    expect(docs.bytes('team-b', false)).toBe(second);
    expect([docs.partsBuilt, docs.joined]).toEqual([1, 2]);
    // An attempt, then a version: the parts built again.
    learner.record({ at: '2026-12-05T00:00:00.000Z', sessions: 1, result: 'skipped', reason: 'r', tenant: 'team-b' });
    docs.bytes('team-b', false);
    holder.swap({ ...file }, { source: 'learned', sessions: 1 }, 'team-b');
    expect(docs.bytes('team-b', false).toString()).toBe(reference(holder, learner, 'team-b', false));
    expect([docs.partsBuilt, docs.joined]).toEqual([3, 4]);
  });
});
