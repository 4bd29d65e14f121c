import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { SplitReport, TradeoffResult, WeightsReport } from '../../src/core/calibrate/index.js';
import { canStop, resolvePolicy } from '../../src/core/policy.js';
import { readConfigFile, readPolicyFile } from '../../src/settings-files.js';
import { PALETTE } from '../../src/report/render/palette.js';
import { tradeoffChart } from '../../src/report/tradeoff-chart.js';
import { expectReadableSvg } from '../report/svg-check.js';
import { CORPUS, cli } from '../cli/run-cli.js';

interface Doc {
  policy: unknown;
  tradeoff: TradeoffResult;
  split: SplitReport;
  weights: WeightsReport;
}

describe('steplens calibrate: combined grid, split and weights on the shared corpus', () => {
  const dir = mkdtempSync(join(tmpdir(), 'steplens-tradeoff-'));
  const out = join(dir, 'policy.json');
  const cfg = join(dir, 'weights.json');
  // 35 passing runs: at 10 % the 95 % upper bound allows no false stop (8.2 % with none); the default 5 % allows no stop at all.
  const running = cli('calibrate', CORPUS, '--json', '--weights', '--max-false-stop', '0.1', '--out', out, '--config-out', cfg, '--out-dir', join(dir, 'charts'));

  it('chooses within the bound in-sample, writes only what the held-out halves confirmed, where readPolicyFile and resolvePolicy load it', async () => {
    const run = await running;
    // The corpus holds one JSON file that is no log (a metrics file beside an OpenAgents run): named, not fatal.
    // and one run (mini-swe-agent's example astropy-12907) whose task an sb-cli report of another run names.
    expect(run.stderr).toMatch(/^skipped \S+\/metrics\.json: could not detect the log format [^\n]*\nwarning: 1 of \d+ runs without an outcome have their task in 2 evaluation files [^\n]*\n$/);
    expect(run.code).toBe(0);
    const doc = JSON.parse(run.stdout) as Doc;
    const t = doc.tradeoff;
    for (const m of ['reference', 'referenceFree'] as const) {
      expect(t.chosen.modes[m].passingUpper!).toBeLessThanOrEqual(0.1);
      expect(t.chosen.modes[m].passingStopped).toBe(0);
      expect(t.chosen.modes[m].passing + t.chosen.modes[m].failing).toBe(t.runs.passing + t.runs.failing);
    }
    // In-sample, noAction 2 saves tokens within the bound; neither half (17-18 passing runs) can back any stop, so
    // nothing is confirmed and the written policy only warns (test/calibrate/confirm.test.ts has the rest).
    const c = (t as TradeoffResult & { confirmation: { inSample: { noAction: number | null }; warnOnly: boolean } }).confirmation;
    expect(c).toMatchObject({ inSample: { noAction: 2 }, warnOnly: true });
    expect(canStop(t.chosen.policy)).toBe(false);
    const loaded = await readPolicyFile(out);
    expect(loaded).toEqual(t.chosen.policy);
    expect(doc.policy).toEqual(t.chosen.policy);
    expect(resolvePolicy(doc.policy).ok).toBe(true);
    const file = JSON.parse(readFileSync(out, 'utf8')) as { calibration: { inSample: unknown; heldOut: unknown } };
    expect(file.calibration.inSample).toEqual(t.chosen.modes);
    expect(file.calibration.heldOut).toBeDefined();
  }, 180_000);

  it('refuses to write a stop from 35 passing runs under the default 5 % bound: a warn-only policy and why', async () => {
    const policyOut = join(dir, 'refused.json');
    const run = await cli('calibrate', CORPUS, '--split', 'none', '--out', policyOut);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('REFUSED: the written policy only warns');
    expect(run.stdout).toContain('only 35 passing runs: with none stopped the clopper-pearson 95% upper bound of the false-stop rate is 8.2%, above 5.0%; at least 59 passing runs are needed');
    // A policy that stops no run predicts the same for all: said plainly, not as 0.500 [0.500, 0.500].
    expect(run.stdout).toMatch(
      / {2}reference-free: stops no run \(0\/35 passing, 0\/\d+ failing\): it predicts the same for every run, so its AUROC is 0\.5 by construction \(no interval: nothing is measured\)\n/,
    );
    expect(run.stdout).not.toContain('[0.500, 0.500]');
    const written = await readPolicyFile(policyOut);
    expect(canStop(written)).toBe(false);
    expect(written.noAction.warn).toBe(2);
    const file = JSON.parse(readFileSync(policyOut, 'utf8')) as { calibration: { warnOnly: boolean; note: string } };
    expect(file.calibration.warnOnly).toBe(true);
    expect(file.calibration.note).toContain('only warns');
  }, 180_000);

  it('per-run predicted stops agree with the point counts', async () => {
    const t = (JSON.parse((await running).stdout) as Doc).tradeoff;
    const stopped = t.chosen.runs.filter((r) => r.stopAt.referenceFree !== null);
    expect(stopped.filter((r) => r.passed)).toHaveLength(t.chosen.modes.referenceFree.passingStopped);
    expect(stopped.filter((r) => !r.passed)).toHaveLength(t.chosen.modes.referenceFree.failingStopped);
    const saved = stopped.filter((r) => !r.passed).reduce((s, r) => s + r.steps - 1 - r.stopAt.referenceFree!, 0);
    expect(saved).toBe(t.chosen.modes.referenceFree.failingStepsSaved);
  }, 180_000);

  it('reports both halves of the split, by task, and the weights against the paper', async () => {
    const doc = JSON.parse((await running).stdout) as Doc;
    expect(doc.split.folds).toHaveLength(2);
    for (const f of doc.split.folds) expect(f.calibrationTasks.filter((x) => f.holdoutTasks.includes(x))).toEqual([]);
    const pooled = doc.split.pooledOutOfSample.referenceFree;
    expect(pooled.passing + pooled.failing).toBe(doc.tradeoff.runs.passing + doc.tradeoff.runs.failing);
    expect(doc.weights.folds.every((f) => !f.trainingTasks.includes(f.task))).toBe(true);
    expect(doc.weights.auroc.reference.paper).not.toBeNull();
    expect((await readConfigFile(cfg)).weights).toEqual(doc.weights.recommended);
  }, 180_000);

  it('writes the SVG, the CSV and the JSON to --out-dir', async () => {
    await running;
    const svg = readFileSync(join(dir, 'charts', 'tradeoff.svg'), 'utf8');
    expect(svg).toMatch(/^<svg /);
    expect(svg).toContain('default policy');
    expectReadableSvg(svg, 'tradeoff.svg');
    // Round ticks only (no 19.4 %, 38.8 %, ...), and the shared palette (no red/green pair).
    const ticks = [...svg.matchAll(/>([\d.]+) %</g)].map((m) => Number(m[1]));
    expect(ticks.length).toBeGreaterThan(8);
    for (const t of ticks) expect(Number.isInteger(t / 2.5) || Number.isInteger(t), String(t)).toBe(true);
    expect(svg).not.toMatch(/#c62828|#2e7d32|#f9a825/i);
    expect(svg).toContain(`stroke="${PALETTE.referenceFree}"`);
    expect(svg).toContain(`stroke="${PALETTE.reference}"`);
    // Identical fronts in both modes: both curves are still drawn (solid under dashed), and the chart stays readable.
    const t = (JSON.parse(readFileSync(join(dir, 'charts', 'calibration.json'), 'utf8')) as Doc).tradeoff;
    const same: TradeoffResult = {
      ...t,
      front: { referenceFree: t.front.referenceFree, reference: t.front.referenceFree.map((p) => ({ ...p, modes: { ...p.modes, reference: p.modes.referenceFree } })) },
    };
    const both = tradeoffChart(same).svg;
    expect(both.match(/<polyline /g)).toHaveLength(2);
    expect(both).toMatch(/stroke-dasharray="6 4"/);
    expectReadableSvg(both, 'identical fronts');
    expectReadableSvg(tradeoffChart({ ...t, choice: { ...t.choice, maxFalseStop: 0.5 } }).svg, 'bound 50 %');
    // In-sample and pooled over sources, and said so (title and note): the chart once said neither.
    const sources = t.chosen.bySource!.length;
    expect(sources).toBeGreaterThan(1);
    expect(svg).toContain(`<title>Early-stop trade-off, in-sample, pooled (${t.runs.passing} passing, ${t.runs.failing} failing runs)</title>`);
    expect(svg).toContain(`in-sample: each point measured on the runs it was chosen on (held out: calibrate --split); pooled over ${sources} sources`);
    const one = tradeoffChart({ ...t, chosen: { ...t.chosen, bySource: t.chosen.bySource!.slice(0, 1) } }).svg;
    expect(one).toContain('<title>Early-stop trade-off, in-sample (');
    expect(one).toContain('; one source</text>');
    expect(readFileSync(join(dir, 'charts', 'tradeoff.csv'), 'utf8').split('\n')[0]).toContain('failing_token_share');
    expect(existsSync(join(dir, 'charts', 'calibration.json'))).toBe(true);
  }, 180_000);

  it('prints the trade-off, the split (labelled) and the weights for humans; rejects bad flags', async () => {
    const run = await cli('calibrate', CORPUS, '--weights', '--mode', 'reference-free');
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('trade-off, reference-free');
    expect(run.stdout).toContain('in-sample numbers are NOT a forecast');
    expect(run.stdout).toMatch(/both folds held-out, reference-free/);
    expect(run.stdout).toContain('AUROC fitted (held-out)');
    for (const [flag, value, msg] of [
      ['--mode', 'sometimes', '--mode must be'],
      ['--mode', 'constructor', '--mode must be'], // a name Object's prototype has: not a mode
      ['--split', 'thirds', '--split must be'],
      ['--seed', '1.5', '--seed must be'],
      ['--holdout', '1', '--holdout must be'],
    ]) {
      const bad = await cli('calibrate', CORPUS, flag!, value!);
      expect(bad.code).toBe(1);
      expect(bad.stderr).toContain(msg);
    }
    expect((await cli('calibrate', CORPUS, '--config-out', join(dir, 'x.json'))).stderr).toContain('give --weights too');
  }, 180_000);
});
