import { describe, expect, it } from 'vitest';
import { niceTicks, overlaps, textBox, wrapText } from '../../src/report/render/layout.js';
import { OKABE_ITO, PALETTE, TIER_COLORS } from '../../src/report/render/palette.js';
import { reportCharts } from '../../src/report/render/charts.js';
import { badgeLetters } from '../../src/report/render/quality-chart.js';
import type { CorpusReport, ModelRow } from '../../src/report/types.js';
import { corpusReport } from './corpus-fixture.js';
import { expectReadableSvg, svgTexts } from './svg-check.js';

const report = corpusReport();
const LONG = 'openai/accounts/fireworks/models/an-extremely-long-fine-tuned-model-name-with-a-date-2025-11-30-and-a-suffix-v12345';

/** The corpus report with its models renamed to very long names and many of them on one spot. */
function crowded(): CorpusReport {
  const base = report.models.find((m) => m.passRate !== null && m.meanQuality !== null)!;
  const models: ModelRow[] = Array.from({ length: 14 }, (_, i) => ({ ...base, model: `${LONG}-${i}` }));
  models.push({ ...base, model: null, run: `20240825_SWE-agent_a-run-folder-whose-name-is-also-very-long-${'x'.repeat(60)}` });
  models.push({ ...base, model: 'm', passRate: 1, meanQuality: 100 }, { ...base, model: 'z', passRate: 0, meanQuality: 0 });
  return { ...report, models };
}

describe('layout helpers', () => {
  it('round ticks: 1, 2, 2.5 or 5 × 10^k, the last one past the maximum', () => {
    expect(niceTicks(58.3)).toEqual([0, 20, 40, 60]);
    expect(niceTicks(19.4 * 5)).toEqual([0, 20, 40, 60, 80, 100]);
    expect(niceTicks(4.2)).toEqual([0, 1, 2, 3, 4, 5]);
    expect(niceTicks(97)).toEqual([0, 20, 40, 60, 80, 100]);
    expect(niceTicks(8)).toEqual([0, 2, 4, 6, 8]);
    expect(niceTicks(12, 5, true)).toEqual([0, 5, 10, 15]);
    expect(niceTicks(3, 5, true)).toEqual([0, 1, 2, 3]);
    expect(niceTicks(7.5)).toEqual([0, 2, 4, 6, 8]);
    expect(niceTicks(0)).toEqual([0, 0.2, 0.4, 0.6, 0.8, 1]);
  });
  it('wraps long names without cutting anything off', () => {
    const lines = wrapText(LONG, 200, 11);
    expect(lines.join('')).toBe(LONG);
    expect(lines.length).toBeGreaterThan(2);
    expect(wrapText('gpt-5', 200, 11)).toEqual(['gpt-5']);
  });
  it('text boxes follow the anchor and the rotation', () => {
    const a = textBox(100, 50, 'abc', 12, 'end');
    expect(a.x + a.w).toBeCloseTo(100);
    const r = textBox(20, 200, 'a long axis title', 12, 'middle', -90);
    expect(r.w).toBe(12);
    expect(r.h).toBeGreaterThan(80);
    expect(overlaps(a, r)).toBe(false);
  });
});

describe('report charts', () => {
  it('are well-formed, keep every text inside, and no two texts overlap (corpus and crowded/long-name reports)', () => {
    for (const [name, r] of [
      ['corpus', report],
      ['crowded', crowded()],
    ] as const) {
      for (const c of reportCharts(r)) expectReadableSvg(c.svg, `${name} ${c.file}`);
    }
  });

  it('show long model names whole (wrapped) and give every model its own badge', () => {
    const charts = reportCharts(crowded());
    const quality = charts.find((c) => c.file === 'quality-vs-pass-rate.svg')!.svg;
    const texts = svgTexts(quality).texts.map((t) => t.text);
    for (let i = 0; i < 14; i++) expect(texts.join('')).toContain(`${LONG}-${i}`.replace(/\s/g, ''));
    expect(quality).not.toContain('…');
    for (let i = 0; i < 17; i++) expect(texts).toContain(badgeLetters(i));
    const badges = [...quality.matchAll(/<circle cx="([\d.]+)" cy="([\d.]+)" r="9"/g)].map((m) => [Number(m[1]), Number(m[2])]);
    expect(badges).toHaveLength(17);
    for (let i = 0; i < badges.length; i++) {
      for (let j = i + 1; j < badges.length; j++) expect(Math.hypot(badges[i]![0]! - badges[j]![0]!, badges[i]![1]! - badges[j]![1]!)).toBeGreaterThanOrEqual(18);
    }
  });

  it('use the shared colour-blind-safe palette only', () => {
    const allowed = new Set([...Object.values(OKABE_ITO), ...Object.values(PALETTE), ...Object.values(TIER_COLORS), '#ffffff'].map((c) => c.toLowerCase()));
    for (const c of reportCharts(report)) {
      for (const m of c.svg.matchAll(/(?:fill|stroke)="(#[0-9a-fA-F]{6})"/g)) expect(allowed, `${c.file}: ${m[1]}`).toContain(m[1]!.toLowerCase());
    }
  });
});
