/**
 * Each view numbers its own forecast versions (T91): in the `tenant` learning scope tenant B's versions were taken
 * from one sequence shared with every tenant, so the gaps in B's own history counted A's accepted retrainings (B's 8
 * outcomes gave it versions 2-5, A's took 6-9, B's next read 10-12). Now a tenant's view goes up by one per change of
 * its own models or of the shared ones, and by nothing another tenant does. Across a restart:
 * forecast-restart.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { ForecastDocs } from '../../src/server/forecast-doc.js';
import { ForecastHolder } from '../../src/server/forecast-holder.js';
import { forecastFileOf, labelledRuns } from '../forecast/fixtures.js';

const file = forecastFileOf(labelledRuns());
const learned = { source: 'learned' as const, sessions: 20 };

/** What `GET /v1/forecast` tells `tenant`'s agent token: its version and its history's numbers. */
function seen(docs: ForecastDocs, tenant: string | undefined): { version: number; history: number[] } {
  const doc = JSON.parse(docs.bytes(tenant, false).toString()) as { version: number; history: Array<{ version: number }> };
  return { version: doc.version, history: doc.history.map((h) => h.version) };
}

const retrain = (holder: ForecastHolder, tenant: string | undefined, times: number) => {
  for (let i = 0; i < times; i++) holder.swap(holder.fileFor(tenant), learned, tenant);
};

describe('forecast versions numbered per view', () => {
  it("a tenant's history shows no gap from another tenant's retrainings", () => {
    const holder = new ForecastHolder(file);
    const docs = new ForecastDocs(holder, undefined);
    const v = file.version;
    retrain(holder, 'team-b', 4);
    retrain(holder, 'team-a', 4);
    retrain(holder, 'team-b', 3);
    const b = seen(docs, 'team-b');
    // Old code: [v, v+1..v+4, v+9..v+11] (A's four took v+5..v+8).
    expect(b.history).toEqual(Array.from({ length: 8 }, (_, i) => v + i));
    expect(b.version).toBe(v + 7);
    expect(seen(docs, 'team-a')).toEqual({ version: v + 4, history: [v, v + 1, v + 2, v + 3, v + 4] });
    // The shared models' view (operators', tenants without models of their own) moved by none of it.
    expect(seen(docs, undefined)).toEqual({ version: v, history: [v] });
  });

  it('a shared version is the next version of every view holding models of its own, and only of its own numbering', () => {
    const holder = new ForecastHolder(file);
    const docs = new ForecastDocs(holder, undefined);
    const v = file.version;
    retrain(holder, 'team-b', 2);
    retrain(holder, undefined, 1);
    expect(seen(docs, undefined)).toEqual({ version: v + 1, history: [v, v + 1] });
    // B's view changed (the shared models under its own): its next number, listed as the shared version it took.
    expect(seen(docs, 'team-b')).toEqual({ version: v + 3, history: [v, v + 1, v + 2, v + 3] });
    expect(holder.historyOf('team-b').at(-1)).toEqual(expect.objectContaining({ source: 'shared', shared: v + 1, tenant: 'team-b' }));
    // A tenant's first own version comes after the shared one it used.
    retrain(holder, 'team-a', 1);
    expect(seen(docs, 'team-a')).toEqual({ version: v + 2, history: [v, v + 1, v + 2] });
    // Sessions and scoring jobs carry the view's number.
    expect(holder.jobForecast('team-b').version).toBe(v + 3);
    expect(holder.jobForecast('team-a').version).toBe(v + 2);
    expect(holder.jobForecast(undefined).version).toBe(v + 1);
  });
});
