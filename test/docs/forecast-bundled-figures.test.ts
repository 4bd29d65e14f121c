/**
 * docs/forecast.md's table of the bundled forecaster ("The bundled forecaster") quotes the held-out evaluation that
 * data/forecast.json carries (`evaluation.forecast.leaveSourceOut`, what `train` printed when it wrote the file).
 * Issue 26's figures drifted when a doc kept a number its file no longer held (the PTA-mode pPass 0.816 read 0.763 a
 * thousand commits later); here every cell of that table, the mean, within task and best-of-N are recomputed from
 * the shipped file, so a retrained data/forecast.json without the doc (or the doc without the file) fails. Needs no
 * ../shared: only files the repository holds.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { Interval } from '../../src/core/stats/interval.js';

const DOC = readFileSync(new URL('../../docs/forecast.md', import.meta.url), 'utf8');
const FILE = JSON.parse(readFileSync(new URL('../../data/forecast.json', import.meta.url), 'utf8')) as { evaluation: { forecast: { leaveSourceOut: HeldOut } } };

interface SourceSep {
  source: string;
  nPass: number;
  nFail: number;
  auroc: number | null;
  interval: Interval | null;
}
interface Sep {
  withinSource: { mean: number; interval: Interval; sources: SourceSep[] };
  withinTask: { auroc: number; interval: Interval; pairs: number; tasks: number };
}
/** The part of data/forecast.json's held-out evaluation the doc quotes. */
interface HeldOut {
  end: Sep;
  shorter: Sep;
  calibration: { bySource: Record<string, { ece: number }>; checks: Record<string, { interval: Interval; perfect: { mean: number }; debiased: { ece: number; interval: Interval } }> };
  uncalibrated: Record<string, { ece: number }>;
  uncalibratedChecks: Record<string, { interval: Interval }>;
  bestOfN: { bySource: Record<string, { groups: number; top: { resolved: number }; random: { resolved: number }; oracle: { resolved: number }; gapClosed: number; gapInterval: Interval }> };
}
const HELD = FILE.evaluation.forecast.leaveSourceOut;

/** The doc's short name of each source counted in the mean, and the file's. */
const SOURCES: Array<[string, string]> = [
  ['CodeR + gpt-4', 'CodeR + gpt-4'],
  ['SWE-agent 0.x + gpt-4', 'SWE-agent 0.x + gpt-4'],
  ['mini-swe-agent 2.2.4 + gpt-5-mini', 'mini-swe-agent 2.2.4 + openai/gpt-5-mini'],
  ['mini-swe-agent 2.2.7 + deepseek-chat', 'mini-swe-agent 2.2.7 + deepseek/deepseek-chat'],
  ['OpenHands + Claude 3.5 Sonnet', 'OpenHands + Claude-3.5-Sonnet(Oct)'],
];

/** train's own formats (src/cli/train-cells.ts): three decimals, intervals to two. */
const f3 = (x: number) => x.toFixed(3);
const est = (x: number, i: Interval) => `${f3(x)} [${i.lo.toFixed(2)}, ${i.hi.toFixed(2)}]`;

/** The cells of the doc's table row whose first cell is `name` (the section of the bundled forecaster only). */
function row(name: string): string[] {
  const section = DOC.slice(DOC.indexOf('## The bundled forecaster'), DOC.indexOf('#### The kept evidence values'));
  const line = section.split('\n').find((l) => l.startsWith(`| ${name} `));
  if (line === undefined) throw new Error(`docs/forecast.md's bundled table has no row "${name}"`);
  return line
    .split('|')
    .slice(1, -1)
    .map((c) => c.trim());
}

const sourceOf = (sep: Sep, name: string): SourceSep => {
  const s = sep.withinSource.sources.find((x) => x.source === name);
  if (s?.auroc === null || s?.auroc === undefined || s.interval === null) throw new Error(`data/forecast.json has no held-out AUROC for ${name}`);
  return s;
};

describe("docs/forecast.md: the bundled forecaster's table is data/forecast.json's evaluation", () => {
  it.each(SOURCES)('%s: pass / fail, pPass AUROC, run length, ECE', (docName, fileName) => {
    const [, passFail, ppass, length, ece, before] = row(docName);
    const p = sourceOf(HELD.end, fileName);
    expect(passFail).toBe(`${p.nPass} / ${p.nFail}`);
    expect(ppass!.startsWith(`${est(p.auroc!, p.interval!)} `)).toBe(true);
    const l = sourceOf(HELD.shorter, fileName);
    expect(length).toBe(est(l.auroc!, l.interval!));
    const check = HELD.calibration.checks[fileName]!;
    expect(ece!.startsWith(`${est(HELD.calibration.bySource[fileName]!.ece, check.interval)} (`)).toBe(true);
    // The noise floor, then (ece29) the ECE less it with its interval: the doc's figure is the file's.
    expect(ece).toContain(`${f3(check.perfect.mean)}; debiased ${est(check.debiased.ece, check.debiased.interval)})`);
    // With its interval since audit26 (it was a bare point beside the recalibrated ECE's interval).
    expect(before).toBe(est(HELD.uncalibrated[fileName]!.ece, HELD.uncalibratedChecks[fileName]!.interval));
  });

  it('the mean within source and within task', () => {
    const mean = row(`mean within source (${SOURCES.length} sources)`);
    expect(mean[2]!.startsWith(`**${est(HELD.end.withinSource.mean, HELD.end.withinSource.interval)}**`)).toBe(true);
    expect(mean[3]).toBe(est(HELD.shorter.withinSource.mean, HELD.shorter.withinSource.interval));
    const wt = HELD.end.withinTask;
    const task = row(`within task (${wt.tasks} tasks, ${wt.pairs} pass/fail pairs)`);
    expect(task[2]!.startsWith(`${est(wt.auroc, wt.interval)} `)).toBe(true);
    expect(task[3]).toBe(est(HELD.shorter.withinTask.auroc, HELD.shorter.withinTask.interval));
  });

  it('best-of-N within SWE-agent 0.x + gpt-4', () => {
    const b = HELD.bestOfN.bySource['SWE-agent 0.x + gpt-4']!;
    const pc = (x: number) => `${(100 * x).toFixed(1)} %`;
    const quoted =
      `top-pPass pick resolves ${b.top.resolved.toFixed(1)} of ${b.groups} tasks against ${b.random.resolved.toFixed(1)} for a ` +
      `random pick and ${b.oracle.resolved} for an oracle, ${pc(b.gapClosed)} of the gap [${pc(b.gapInterval.lo)}, ${pc(b.gapInterval.hi)}]`;
    expect(DOC.replace(/\s+/g, ' ')).toContain(quoted);
  });
});
