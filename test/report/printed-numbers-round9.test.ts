/**
 * audit29, on the quality-vs-pass-rate chart of ../shared/calibration (3 sources, 31-721 runs each): on a 0-100
 * quality axis each source's ±2-point bootstrap interval was a 16-px bar, and the 9-px numbered badge sat on the
 * point, over it: the chart read as one without a quality interval. The three sources below carry the figures
 * `report --manifest` printed for the calibration set (models table); the rest of the report is the shared corpus's.
 */
import { describe, expect, it } from 'vitest';
import { niceSpan } from '../../src/report/render/layout.js';
import { qualityVsPassRate } from '../../src/report/render/quality-chart.js';
import { calibrationLike } from './calibration-like.js';
import { corpusReport } from './corpus-fixture.js';
import { expectReadableSvg } from './svg-check.js';

const corpus = corpusReport();
const BADGE = 9;

const num = (s: string) => Number(s);
/** The error bars drawn vertically (stroke-width 1.5, longer than a cap of 8 px): [x, y top, y bottom]. */
function verticalBars(svg: string): Array<[number, number, number]> {
  return [...svg.matchAll(/<line x1="([\d.]+)" y1="([\d.]+)" x2="([\d.]+)" y2="([\d.]+)" stroke="[^"]+" stroke-width="1.5"\/>/g)]
    .filter((m) => m[1] === m[3] && Math.abs(num(m[4]!) - num(m[2]!)) > 8.5)
    .map((m) => [num(m[1]!), Math.min(num(m[2]!), num(m[4]!)), Math.max(num(m[2]!), num(m[4]!))]);
}
const badgesOf = (svg: string) => [...svg.matchAll(/<circle cx="([\d.]+)" cy="([\d.]+)" r="9"/g)].map((m) => [num(m[1]!), num(m[2]!)] as const);

describe('the quality chart draws each quality interval where it can be seen', () => {
  for (const [name, report] of [
    ['calibration-like', calibrationLike(corpus)],
    ['corpus', corpus],
  ] as const) {
    it(`${name}: every quality bar is longer than a badge and no badge covers any of it`, () => {
      const svg = qualityVsPassRate(report).svg;
      expectReadableSvg(svg, name);
      const withIv = report.models.filter((m) => m.passRate !== null && m.meanQuality !== null && m.meanQualityInterval && m.meanQualityInterval.hi > m.meanQualityInterval.lo);
      const bars = verticalBars(svg);
      expect(bars).toHaveLength(withIv.length);
      const badges = badgesOf(svg);
      for (const [x, top, bottom] of bars) {
        expect(bottom - top, `bar at x ${x}`).toBeGreaterThan(2 * BADGE + 2);
        for (const [bx, by] of badges) {
          // Distance from the badge's centre to the bar (a vertical segment).
          const d = Math.hypot(bx - x, by - Math.min(bottom, Math.max(top, by)));
          expect(d, `badge at ${bx},${by} over the bar at x ${x}`).toBeGreaterThan(BADGE);
        }
      }
    });
  }

  it('calibration-like: the quality axis spans the intervals, labelled from its first tick', () => {
    const svg = qualityVsPassRate(calibrationLike(corpus)).svg;
    expect(svg).toContain('mean quality score (bars: 95 % intervals)');
    expect(svg).toMatch(/text-anchor="end">50<\/text>/);
    expect(svg).not.toMatch(/text-anchor="end">0<\/text>/);
  });

  it('niceSpan: round ticks over the span, widened to the minimum, within the bounds', () => {
    expect(niceSpan(52, 66)).toEqual([50, 55, 60, 65, 70]);
    expect(niceSpan(53, 59)).toEqual([52, 54, 56, 58, 60]);
    expect(niceSpan(60, 61, { minSpan: 10, floor: 0, ceil: 100 })).toEqual([54, 56, 58, 60, 62, 64, 66]);
    expect(niceSpan(-3, 8, { minSpan: 10, floor: 0, ceil: 100 })).toEqual([0, 2, 4, 6, 8]);
    expect(niceSpan(0, 100, { floor: 0, ceil: 100 })).toEqual([0, 20, 40, 60, 80, 100]);
  });
});
