/**
 * A chart says what its figures are over: the score histogram of several sources is labelled pooled, and the
 * quality vs. pass rate chart cautions when its sources ran different tasks (both once said neither). One source,
 * or sources that ran the same tasks, get neither label.
 */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { modelRows } from '../../src/report/models.js';
import { differentTasksCaution, pooledLabel } from '../../src/report/render/chart-scope.js';
import { reportCharts } from '../../src/report/render/charts.js';
import { CORPUS_DIR } from '../fixtures/corpus.js';
import { corpusReport } from './corpus-fixture.js';
import { expectReadableSvg, svgTexts } from './svg-check.js';
import { row } from './trajectory-row.js';

const chart = (charts: ReturnType<typeof reportCharts>, file: string) => charts.find((c) => c.file === file)!.svg;
const title = (svg: string) => /<title>([^<]*)<\/title>/.exec(svg)![1]!;

describe('chart scope labels', () => {
  it('the whole corpus (several sources, different tasks): pooled histogram, cautioned scatter', () => {
    const r = corpusReport();
    const charts = reportCharts(r);
    const sources = new Set(r.trajectories.filter((t) => (t.outcome === 'pass' || t.outcome === 'fail') && t.score).map((t) => t.source)).size;
    const hist = chart(charts, 'score-distribution.svg');
    expect(title(hist)).toBe(`Score distribution: passing vs. failing, pooled over ${sources} sources`);
    const scatter = chart(charts, 'quality-vs-pass-rate.svg');
    expect(
      svgTexts(scatter)
        .texts.map((t) => t.text)
        .join(' '),
    ).toMatch(/Caution: these \d+ sources ran different tasks \(0 of \d+ run by all of them\)/);
    expect(chart(charts, 'tier-shares.svg')).toContain('all models, pooled (n=');
    expectReadableSvg(hist, 'score-distribution.svg');
    expectReadableSvg(scatter, 'quality-vs-pass-rate.svg');
  });

  it('sources that ran the same tasks: no caution; one source: nothing pooled', () => {
    const rows = ['A', 'B'].flatMap((m) => [0, 1, 2].map((i) => row(m, i === 0 ? 'pass' : 'fail', 50, i === 0 ? 'Solid' : undefined, undefined, `t__t-${i}`)));
    const models = modelRows(rows, { minRuns: 2 });
    expect(differentTasksCaution(models, rows)).toBeNull();
    expect(differentTasksCaution(models, [...rows, row('B', 'fail', 40, undefined, undefined, 't__t-9')])).toBe(
      "Caution: these 2 sources ran different tasks (3 of 4 run by all of them): a point's place partly reflects how hard its tasks were; side by side is not a ranking",
    );
    expect(pooledLabel(rows)).toBe('pooled over 2 sources');
    expect(pooledLabel(rows.filter((r) => r.model === 'A'))).toBeNull();
    const all = corpusReport([path.join(CORPUS_DIR, 'SWE-agent__mini-swe-agent__pull-refs/output')]);
    const source = all.models.find((m) => m.passRate !== null)!.source;
    const charts = reportCharts({ ...all, trajectories: all.trajectories.filter((t) => t.source === source), models: all.models.filter((m) => m.source === source) });
    expect(title(chart(charts, 'score-distribution.svg'))).toBe('Score distribution: passing vs. failing');
    expect(chart(charts, 'quality-vs-pass-rate.svg')).not.toContain('Caution');
  });
});
