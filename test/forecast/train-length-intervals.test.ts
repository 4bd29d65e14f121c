/**
 * Audit25: `train` prints run length alone beside pPass as the baseline it must beat, but printed its mean within
 * source (longer wins), within-task and pooled AUROCs, and the headline's run-length figures, as bare points, though
 * the evaluation holds their bootstrap intervals. Read on the bundled forecaster's own evaluation (data/forecast.json,
 * trained on 1,002 real runs): every run-length figure is printed with the interval the file holds.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { forecastText } from '../../src/cli/train-forecast-text.js';
import { parseForecast } from '../../src/core/forecast/model.js';
import type { TrainEvaluation } from '../../src/core/forecast/train.js';
import type { Interval } from '../../src/core/stats/interval.js';

const parsed = parseForecast(JSON.parse(readFileSync(new URL('../../data/forecast.json', import.meta.url), 'utf8')));
if (!parsed.ok) throw new Error(parsed.error);
const file = parsed.value;
const e = (file.evaluation as { forecast: TrainEvaluation }).forecast;
const text = forecastText(e, file.models);
const fig = (x: number, i: Interval | null) => `${x.toFixed(3)} ${i === null ? '[-]' : `[${i.lo.toFixed(2)}, ${i.hi.toFixed(2)}]`}`;
const flip = (x: number, i: Interval | null) => fig(1 - x, i === null ? null : { lo: 1 - i.hi, hi: 1 - i.lo, level: i.level });
const esc = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

describe('train prints run length alone with its intervals', () => {
  it.each([
    ['leave one source out, per source', 'calibration, leave one source out', e.leaveSourceOut],
    ['task-disjoint folds, per source', 'calibration, task-disjoint folds', e.taskFolds],
  ] as const)('in the table "%s": the mean, within-task and pooled rows', (from, to, v) => {
    const table = text.slice(text.indexOf(from), text.indexOf(to));
    const row = (start: string) => table.split('\n').find((l) => l.startsWith(start)) ?? '';
    const ws = v.shorter.withinSource;
    const wt = v.shorter.withinTask;
    const po = v.shorter.pooled;
    expect(ws.interval).not.toBeNull();
    expect(wt.interval).not.toBeNull();
    expect(po.interval).not.toBeNull();
    expect(row('mean within source (')).toMatch(new RegExp(`${esc(fig(ws.mean!, ws.interval))} +${esc(flip(ws.mean!, ws.interval))}$`));
    expect(row('within task (')).toMatch(new RegExp(`${esc(fig(wt.auroc!, wt.interval))} +${esc(flip(wt.auroc!, wt.interval))}$`));
    expect(row('pooled (source alone')).toMatch(new RegExp(`${esc(fig(po.auroc!, po.interval))} +${esc(flip(po.auroc!, po.interval))}$`));
  });

  it('as data/forecast-training.txt (what train printed when it wrote the file) shows them', () => {
    const training = readFileSync(new URL('../../data/forecast-training.txt', import.meta.url), 'utf8');
    const rows = text.split('\n').filter((l) => /^(headline|task-disjoint folds \(|mean within source|within task|pooled)/.test(l));
    expect(rows.length).toBeGreaterThanOrEqual(8);
    for (const r of rows) expect(training).toContain(`${r}\n`);
  });

  it('in the headline, beside the mean within-source AUROC of pPass', () => {
    const ws = e.leaveSourceOut.shorter.withinSource;
    expect(text).toContain(`(run length alone: shorter wins ${fig(ws.mean!, ws.interval)}, longer wins ${flip(ws.mean!, ws.interval)})`);
  });
});
