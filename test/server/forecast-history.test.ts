/**
 * The forecast history (`GET /v1/forecast`'s `history`) is bounded per scope (T51): one tenant's versions push out
 * only its own oldest, never another tenant's nor the shared models' (one bound of 100 for all did).
 */
import { describe, expect, it } from 'vitest';
import { ForecastHolder, MAX_HISTORY } from '../../src/server/forecast-holder.js';
import { forecastFileOf, labelledRuns } from '../forecast/fixtures.js';

const file = forecastFileOf(labelledRuns());
const learned = { source: 'learned' as const, sessions: 20 };

describe('forecast history per scope', () => {
  it("keeps a tenant's and the shared versions while another tenant makes many", () => {
    const holder = new ForecastHolder(file);
    const shared = holder.swap(holder.fileFor(undefined), learned).version;
    const a = holder.swap(holder.fileFor('team-a'), learned, 'team-a').version;
    for (let i = 0; i < 3 * MAX_HISTORY; i++) holder.swap(holder.fileFor('team-b'), learned, 'team-b');
    const view = (t: string | undefined) => holder.historyOf(t).map((h) => h.version);
    expect(view('team-a')).toEqual([file.version, shared, a]);
    const b = view('team-b');
    expect(b.slice(0, 2)).toEqual([file.version, shared]);
    // B's own: its newest MAX_HISTORY, in order, numbered in its view only (T91: A's version takes none of them).
    expect(b.slice(2)).toEqual(Array.from({ length: MAX_HISTORY }, (_, i) => shared + 2 * MAX_HISTORY + 1 + i));
  });

  it('keeps the loaded file and the newest shared versions within the bound', () => {
    const holder = new ForecastHolder(file);
    for (let i = 0; i < MAX_HISTORY + 7; i++) holder.swap(holder.fileFor(undefined), learned);
    expect(holder.history).toHaveLength(MAX_HISTORY);
    expect(holder.history[0]).toEqual(expect.objectContaining({ source: 'file', version: file.version }));
    expect(holder.history.at(-1)!.version).toBe(file.version + MAX_HISTORY + 7);
    expect(holder.history[1]!.version).toBe(file.version + 9);
  });
});
