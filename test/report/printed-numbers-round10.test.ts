/**
 * audit30, on the quality-vs-pass-rate chart of ../shared/calibration (3 sources; the models table ranks none:
 * they ran different tasks): its key numbered the sources 1, 2, 3 in the table's order (by runs), and 1 was the
 * lowest point, SWE-agent 0.x + gpt-4: a key numbered 1 to 3 reads as a ranking the report declines to make. The
 * badges and the key are lettered now (A, B, C), still in the table's order.
 */
import { describe, expect, it } from 'vitest';
import { badgeLetters, qualityVsPassRate } from '../../src/report/render/quality-chart.js';
import type { CorpusReport, ModelRow } from '../../src/report/types.js';
import { corpusReport } from './corpus-fixture.js';
import { svgTexts } from './svg-check.js';

const corpus = corpusReport();

/** The calibration set's three sources as `report --manifest` printed them (models table), none ranked. */
function calibrationLike(): CorpusReport {
  const base = corpus.models.find((m) => m.passRateInterval && m.meanQualityInterval)!;
  const row = (agent: string, model: string, n: number, p: [number, number, number], q: [number, number, number]): ModelRow => ({
    ...base,
    agent,
    model,
    evaluated: n,
    scored: n,
    passRate: p[0],
    passRateInterval: { lo: p[1], hi: p[2], level: 0.95 },
    rankPass: null,
    meanQuality: q[0],
    meanQualityInterval: { lo: q[1], hi: q[2], level: 0.95 },
    rankQuality: null,
    rankShift: null,
  });
  const models = [
    row('SWE-agent 0.x', 'gpt-4', 721, [0.104, 0.075, 0.143], [56.1, 53.9, 58.4]),
    row('CodeR', 'gpt-4', 199, [0.322, 0.261, 0.389], [63.2, 61.3, 65.0]),
    row('mini-swe-agent 2.2.4', 'openai/gpt-5-mini', 31, [0.581, 0.408, 0.736], [62.6, 60.3, 64.9]),
  ];
  return { ...corpus, models };
}

describe('the quality chart names its points by letter, not by a number that reads as a rank', () => {
  it('badges and key of three unranked sources: A, B, C in the table order, no 1, 2, 3', () => {
    const svg = qualityVsPassRate(calibrationLike()).svg;
    const badgeTexts = [...svg.matchAll(/r="9"[^>]*><title>[^<]*<\/title><\/circle>\s*<text [^>]*>([^<]*)<\/text>/g)].map((m) => m[1]);
    expect(badgeTexts).toEqual(['A', 'B', 'C']);
    const texts = svgTexts(svg).texts.map((t) => t.text);
    for (const n of ['1', '2', '3']) expect(texts).not.toContain(n);
    // The key: each letter beside its source, in the models table's order.
    const i = (s: string) => texts.indexOf(s);
    expect(i('A')).toBeLessThan(texts.findIndex((t) => t.startsWith('SWE-agent 0.x + gpt-4')));
    expect(texts.findIndex((t) => t.startsWith('SWE-agent 0.x + gpt-4'))).toBeLessThan(texts.lastIndexOf('B'));
  });

  it('letters past Z go on as AA, AB, ...', () => {
    expect([0, 1, 25, 26, 27, 51, 52, 701, 702].map(badgeLetters)).toEqual(['A', 'B', 'Z', 'AA', 'AB', 'AZ', 'BA', 'ZZ', 'AAA']);
  });
});
