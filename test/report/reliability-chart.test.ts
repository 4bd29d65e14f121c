/**
 * The reliability diagram with as many sources as `steplens report --forecast bundled` over ../shared/calibration +
 * ../shared/corpus has (15, their names and n as it printed them on 2026-12-06): with 8 colours the points of the
 * 9th source on were drawn in the 1st's colour (CodeR + gpt-4's and doubao-pro-128k's alike), so no reader could tell
 * them apart. Now one colour a source, the 8 with the most runs drawn and the others named as left out; the key gives
 * each ECE with its interval, as the calibration table does.
 */
import { describe, expect, it } from 'vitest';
import { reliabilityDiagram } from '../../src/report/render/reliability-chart.js';
import type { CalibrationRow, CorpusReport } from '../../src/report/types.js';
import { expectReadableSvg, svgTexts } from './svg-check.js';

const SOURCES: Array<[string, number]> = [
  ['CodeR + gpt-4', 199],
  ['SWE-agent 0.x + gpt-4', 721],
  ['mini-swe-agent 1.15.0 + google/gemini-3-pro-preview', 6],
  ['mini-swe-agent 2.2.4 + openai/gpt-5-mini', 31],
  ['mini-swe-agent 2.2.7 + deepseek/deepseek-chat', 12],
  ['openhands + (model not named) 20250329_OpenHands_Claude-3.5-Sonnet(Oct)', 6],
  ['swe-agent + (model not named) 20240825_SWE-agent_deepseek-chat-v2', 3],
  ['swe-agent + (model not named) 20240825_SWE-agent_deepseek-coder-v2', 3],
  ['swe-agent + (model not named) 20240825_SWE-agent_doubao-pro-128k', 3],
  ['swe-agent + (model not named) 20240825_SWE-agent_gpt-4o-2024-05-13', 3],
  ['swe-agent + (model not named) 20240825_SWE-agent_gpt-4o-mini-2024-07-18', 1],
  ['swe-agent 1.1.0 + claude-sonnet-4-20250514', 1],
  ['swe-agent 1.1.0 + gpt-5-2025-08-07', 5],
  ['swe-agent 1.1.0 + openai/accounts/fireworks/models/kimi-k2-instruct-0905', 5],
  ['swe-agent 1.1.0 + openai/accounts/fireworks/models/qwen3-coder-480b-a35b-instruct', 3],
];

const row = ([source, n]: [string, number], i: number): CalibrationRow => {
  const p = (i % 10) / 10 + 0.05;
  return {
    source,
    n,
    ece: 0.1,
    interval: n >= 5 ? { lo: 0.05, hi: 0.2, level: 0.95 } : null,
    passRate: null,
    perfect: { mean: 0.08, hi: 0.15 },
    p: 0.3,
    debiased: { ece: 0.02, interval: n >= 5 ? { lo: -0.03, hi: 0.12, level: 0.95 } : null },
    meanPredicted: p,
    observedRate: p,
    bins: [{ lo: p - 0.05, hi: p + 0.05, n, predicted: p, observed: p, interval: { lo: 0, hi: 1, level: 0.95 } }],
  };
};

/** The fill of each source's points, read from their tooltips (`SOURCE, pPass ...`). */
function fills(svg: string): Map<string, Set<string>> {
  const out = new Map<string, Set<string>>();
  for (const m of svg.matchAll(/<circle [^>]*fill="([^"]+)"[^>]*><title>([^<]*), pPass /g)) {
    const source = m[2]!.replace(/&amp;/g, '&');
    out.set(source, (out.get(source) ?? new Set()).add(m[1]!));
  }
  return out;
}

describe('reliability diagram with more sources than colours', () => {
  const calibration = [...SOURCES.map(row), { ...row(['all', 1018], 0), source: 'all' }];
  const chart = reliabilityDiagram({ calibration } as unknown as CorpusReport)!;

  it('draws one colour a source: the 8 with the most runs, the others named as not drawn', () => {
    const drawn = fills(chart.svg);
    expect([...drawn.keys()].sort()).toEqual(
      [...SOURCES]
        .sort((a, b) => b[1] - a[1])
        .slice(0, 8)
        .map(([s]) => s)
        .sort(),
    );
    const colours = [...drawn.values()].map((s) => [...s]);
    expect(colours.every((c) => c.length === 1)).toBe(true);
    expect(new Set(colours.flat()).size).toBe(drawn.size);
    expect(chart.svg).toContain('not drawn (7 with fewer runs;');
    // The key's lines after the note, joined (a long name wraps over lines), name each source left out with its n.
    const lines = svgTexts(chart.svg).texts.map((t) => t.text);
    const key = lines
      .slice(lines.findIndex((t) => t.startsWith('not drawn')))
      .join('')
      .replace(/\s/g, '');
    for (const [source, n] of SOURCES.filter(([x]) => !drawn.has(x))) expect(key).toContain(`${source}(n=${n})`.replace(/\s/g, ''));
    expectReadableSvg(chart.svg, 'reliability-diagram.svg');
  });

  it("gives each drawn source's ECE with its interval, where it has one", () => {
    expect(chart.svg).toContain('n=199, ECE 0.100 [0.050, 0.200]');
    expect(chart.svg).toContain('n=5, ECE 0.100 [0.050, 0.200]');
  });
});

/**
 * `steplens report --forecast bundled` over ../shared/calibration + ../shared/corpus (2026-12-07): 1,002 of the 1,017
 * runs with a pPass trained the bundled forecaster, and the tables say so under each, but the reliability diagram,
 * drawn in report.html's header and written alone as reliability-diagram.svg, showed SWE-agent 0.x + gpt-4's in-sample
 * ECE 0.028 as a plain figure. Its own title line and key now say which points are in-sample.
 */
describe('reliability diagram of in-sample pPass', () => {
  const calibration = [row(['SWE-agent 0.x + gpt-4', 721], 0), row(['CodeR + gpt-4', 199], 3), row(['new agent + m', 40], 6)];
  const bySource = [
    { source: 'CodeR + gpt-4', inSample: 199, withPPass: 199 },
    { source: 'SWE-agent 0.x + gpt-4', inSample: 721, withPPass: 721 },
    { source: 'new agent + m', inSample: 0, withPPass: 40 },
  ];
  const report = (forecastInSample: unknown) => ({ calibration, inputs: { forecastInSample } }) as unknown as CorpusReport;

  it('says under the title how many runs trained the forecaster, and in the key which sources', () => {
    const svg = reliabilityDiagram(report({ checked: true, inSample: 1002, withPPass: 1017, bySource }))!.svg;
    const lines = svgTexts(svg).texts.map((t) => t.text);
    expect(lines).toContain('in-sample: the forecaster was trained on 1002 of the 1017 runs (optimistic)');
    expect(lines).toContain('in-sample: trained on 721 of its runs');
    expect(lines).toContain('in-sample: trained on 199 of its runs');
    expect(lines.filter((l) => l.startsWith('in-sample:'))).toHaveLength(3); // none for the source it never saw
    expect(lines).toContain("a dot's area: the bin's runs; bars: Wilson 95 %");
    expectReadableSvg(svg, 'reliability-diagram.svg');
  });

  it('says nothing of it when no run trained it, and that it cannot tell when the file lists none', () => {
    const held = reliabilityDiagram(report({ checked: true, inSample: 0, withPPass: 960, bySource: bySource.map((b) => ({ ...b, inSample: 0 })) }))!.svg;
    expect(held).not.toContain('in-sample');
    const unknown = reliabilityDiagram(report({ checked: false, inSample: null, withPPass: 960, bySource: bySource.map((b) => ({ ...b, inSample: null })) }))!.svg;
    expect(unknown).toContain('whether these runs trained the forecaster cannot be checked (its file lists none)');
    expectReadableSvg(unknown, 'reliability-diagram.svg');
  });
});
