/**
 * The end-of-run model (core/forecast/end-ecdf.ts, end-model.ts; task endrank29): the mid-rank ECDF of its tables,
 * the model file round trip (a file with `end` and one without, which loads as before), and the end scorer fed a
 * real run step by step giving the pPass of that run's batch end row.
 */
import { describe, expect, it } from 'vitest';
import { compileTable, ecdfOf, ecdfTable } from '../../src/core/forecast/end-ecdf.js';
import { createEndScorer, endPPass } from '../../src/core/forecast/end-model.js';
import { FEATURE_COUNT } from '../../src/core/forecast/features.js';
import { parseForecast } from '../../src/core/forecast/model.js';
import { DEFAULT_FIT } from '../../src/core/forecast/select.js';
import { endForecastFileOf, labelledRuns } from './fixtures.js';

const runs = labelledRuns();
/** A file with a prefix model and an end model, both fitted on the labelled runs. */
const endFile = () => endForecastFileOf(runs);
const endRow = (r: (typeof runs)[number]) => r.rows.slice((r.at.length - 1) * FEATURE_COUNT, r.at.length * FEATURE_COUNT);

describe('end-of-run model', () => {
  it('maps a value to its mid-rank ECDF among the population (ties count half, NaN stays NaN)', () => {
    const t = compileTable(ecdfTable([5, 1, 2, 1, Number.NaN]));
    expect(ecdfTable([5, 1, 2, 1])).toEqual({ values: [1, 2, 5], counts: [2, 1, 1] });
    expect([0, 1, 1.5, 2, 3, 5, 9].map((x) => ecdfOf(t, x))).toEqual([0, 0.25, 0.5, 0.625, 0.75, 0.875, 1]);
    expect(ecdfOf(t, Number.NaN)).toBeNaN();
    expect(ecdfOf(compileTable(ecdfTable([])), 3)).toBe(0.5);
  });

  it('round-trips through the model file, and a file without it still loads', () => {
    const file = endFile();
    const back = parseForecast(JSON.parse(JSON.stringify(file)));
    expect(back.ok).toBe(true);
    if (!back.ok) return;
    expect(back.value.end).toEqual(file.end);
    for (const r of runs) expect(endPPass(back.value.end!, r.agent, r.model, endRow(r))).toBe(endPPass(file.end!, r.agent, r.model, endRow(r)));
    const { end: _, ...old } = file;
    const loaded = parseForecast(JSON.parse(JSON.stringify(old)));
    expect(loaded.ok && loaded.value.end === undefined).toBe(true);
  });

  it('refuses an end model whose tables are out of order or missing for a feature it reads', () => {
    const file = endFile();
    const f = DEFAULT_FIT.features[0]!;
    const unordered = structuredClone(file);
    unordered.end!.tables[f] = { values: [2, 1], counts: [1, 1] };
    expect(parseForecast(unordered)).toEqual({ ok: false, error: `invalid forecast model: end.tables.${f}.values must be strictly ascending` });
    const missing = structuredClone(file);
    delete missing.end!.tables[f];
    expect(parseForecast(missing)).toEqual({ ok: false, error: `invalid forecast model: end.models read ${f} without a table in end.tables` });
  });

  it('scores a real run fed step by step as its batch end row (the same pPass in rank, report and on the server)', () => {
    const file = endFile();
    const values = new Set<number>();
    for (const r of runs) {
      const s = createEndScorer(file.end!, r.agent, r.model);
      r.steps.forEach((step, i) => s.add(step, r.states[i]!, r.labels[i]!));
      const batch = endPPass(file.end!, r.agent, r.model, endRow(r))!;
      expect(s.value()).toBe(batch);
      values.add(batch);
    }
    // Not one constant: the model reads the runs apart.
    expect(values.size).toBeGreaterThan(3);
  });
});
