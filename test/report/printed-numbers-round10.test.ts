/**
 * audit30, on the quality-vs-pass-rate chart of ../shared/calibration (3 sources; the models table ranks none:
 * they ran different tasks): its key numbered the sources 1, 2, 3 in the table's order (by runs), and 1 was the
 * lowest point, SWE-agent 0.x + gpt-4: a key numbered 1 to 3 reads as a ranking the report declines to make. The
 * badges and the key are lettered now (A, B, C), still in the table's order.
 */
import { describe, expect, it } from 'vitest';
import { badgeLetters, qualityVsPassRate } from '../../src/report/render/quality-chart.js';
import { calibrationLike } from './calibration-like.js';
import { corpusReport } from './corpus-fixture.js';
import { svgTexts } from './svg-check.js';

const corpus = corpusReport();

describe('the quality chart names its points by letter, not by a number that reads as a rank', () => {
  it('badges and key of three unranked sources: A, B, C in the table order, no 1, 2, 3', () => {
    const svg = qualityVsPassRate(calibrationLike(corpus, true)).svg;
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
