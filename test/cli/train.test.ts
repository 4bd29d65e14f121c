/** `steplens train` on the real corpus (outcomes from the evaluation files beside its runs). */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parseForecast, selectModel } from '../../src/core/forecast/model.js';
import type { PriorWeightsReport } from '../../src/core/forecast/prior-weights.js';
import type { TrainEvaluation } from '../../src/core/forecast/train.js';
import { CORPUS, cli } from './run-cli.js';

const dir = mkdtempSync(path.join(os.tmpdir(), 'steplens-train-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('steplens train', () => {
  it('--end-model writes the end-of-run model that rank --rank-model end reads', async () => {
    const out = path.join(dir, 'forecast-end.json');
    const r = await cli('train', '--out', out, '--folds', '3', '--end-model', CORPUS);
    expect(r.code).toBe(0);
    const parsed = parseForecast(JSON.parse(readFileSync(out, 'utf8')));
    expect(parsed.ok && parsed.value.end !== undefined).toBe(true);
    expect(r.stdout).toContain('end-of-run model (finished runs only: rank and report --rank-model end;');
  });

  it('writes a versioned model file with its held-out evaluation, and prints what it writes', async () => {
    const out = path.join(dir, 'forecast.json');
    const r = await cli('train', '--out', out, '--folds', '3', CORPUS);
    // As for report and calibrate: files that are no log are named on stderr, one line each, and do not fail the run.
    // One run without an outcome whose task an evaluation of another run names: one warning line.
    expect(r.stderr).toMatch(/^(skipped [^\n]+: could not detect the log format [^\n]+\n)*(warning: \d+ of \d+ runs without an outcome have their task in [^\n]+\n)?$/);
    expect(r.code).toBe(0);
    const doc: unknown = JSON.parse(readFileSync(out, 'utf8'));
    const parsed = parseForecast(doc);
    expect(parsed.ok).toBe(true);
    if (!parsed.ok) return;
    expect(parsed.value.version).toBe(1);
    // The end-of-run model is an option (--end-model): without it the file has none and train says nothing of it.
    expect(parsed.value.end).toBeUndefined();
    expect(r.stdout).not.toContain('end-of-run model');
    const e = parsed.value.evaluation as { runs: number; sources: Array<{ source: string; nPass: number; nFail: number }>; forecast: TrainEvaluation; referenceFree: PriorWeightsReport };
    expect(e.runs).toBeGreaterThanOrEqual(40);
    // Every source trained on is printed with its n, as the file holds them, whether or not it could be held out.
    expect(e.sources.reduce((a, c) => a + c.nPass + c.nFail, 0)).toBe(e.runs);
    expect(r.stdout).toContain(`sources (agent + model; pass / fail): ${e.sources.map((c) => `${c.source} ${c.nPass} / ${c.nFail}`).join('; ')}\n`);
    const f = e.forecast;
    // The headline is the mean within-source AUROC held out, printed with its interval and the number of sources.
    const ws = f.leaveSourceOut.end.withinSource;
    expect(ws.mean).not.toBeNull();
    expect(r.stdout).toContain(
      `headline, leave one source out (each source ranked by a model fitted without it and without its runs' tasks): mean within-source AUROC of pPass ${ws.mean!.toFixed(3)} [${ws.interval!.lo.toFixed(2)}, ${ws.interval!.hi.toFixed(2)}] over ${ws.counted} sources`,
    );
    // Every source's cell carries its n of passing and failing runs, and run length beside it both ways.
    for (const s of ws.sources) expect(r.stdout).toMatch(new RegExp(`${s.source.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}.*${s.nPass} / ${s.nFail}`));
    expect(r.stdout).toMatch(/shorter wins +longer wins/);
    expect(r.stdout).toMatch(/within task \(\d+ tasks, \d+ pass\/fail pairs\)/);
    expect(r.stdout).toMatch(/pooled \(source alone: \d\.\d{3} \[\d\.\d{2}, \d\.\d{2}\]\)/);
    expect(Object.keys(f.leaveSourceOut.at)).toEqual(['10', '20', '40']);
    // Calibration and best-of-N per source.
    expect(r.stdout).toMatch(
      /ECE \(10 bins\) \[95 %\] +perfectly calibrated at this n: ECE mean \(95th pct\) +debiased: ECE − noise floor \(the perfect mean\) \[95 %: the ECE interval, its lower end − floor, widened to hold it\] +ECE before any outcome of the source: the default model.s map fitted without it \(--default-map runs\) \[95 %\]/,
    );
    expect(Object.keys(f.leaveSourceOut.calibration.bySource).length).toBeGreaterThan(3);
    // Each source's ECE beside the ECE a perfectly calibrated forecaster shows at its n, as the file holds them.
    for (const [source, c] of Object.entries(f.leaveSourceOut.calibration.checks!)) {
      const cal = f.leaveSourceOut.calibration.bySource[source]!;
      expect(c.n).toBe(cal.n);
      expect(c.ece).toBe(cal.ece);
      if (c.perfect !== null) expect(r.stdout).toMatch(new RegExp(`${cal.n} .*${c.ece!.toFixed(3)}.* ${c.perfect.mean.toFixed(3)} \\(${c.perfect.hi.toFixed(3)}\\)`));
    }
    // The pooled ECE over every run is labelled pooled, with its n and a bootstrap interval (it once was a bare point).
    const all = f.leaveSourceOut.calibration.allCheck!;
    expect(all.n).toBe(f.leaveSourceOut.calibration.all.n);
    expect(all.interval).not.toBeNull();
    const nSources = Object.keys(f.leaveSourceOut.calibration.bySource).length;
    expect(r.stdout).toContain(`all runs, pooled over ${nSources} sources`);
    expect(r.stdout).toMatch(new RegExp(`all runs, pooled over ${nSources} sources +${all.n} .* ${all.ece!.toFixed(3)} \\[${all.interval!.lo.toFixed(2)}, ${all.interval!.hi.toFixed(2)}\\]`));
    expect(r.stdout).toMatch(/reliability, leave one source out/);
    // No corpus source has 20 runs: the reliability table says so instead of printing a header with no row.
    expect(r.stdout).toContain('reliability, leave one source out:\nno source has 20 runs or more: no per-bin table');
    expect(r.stdout).toMatch(/best-of-N, leave one source out/);
    // 35 passing runs cannot support a 5 % false-stop bound: nothing is recommended, and the output says why.
    expect(f.stop.recommended).toBeNull();
    expect(r.stdout).toContain(`no lowForecast stop is supported: ${f.stop.reason}`);
    expect(f.stop.reason).toMatch(/needs at least 59 passing/);
    // One model per source seen, plus the default.
    const sources = new Set(ws.sources.map((s) => s.source));
    expect(parsed.value.models).toHaveLength(1 + sources.size);
    expect(selectModel(parsed.value, 'an agent never seen', undefined)!.match).toEqual({});
    expect(r.stdout).toMatch(/reference-free composite, leave one source out/);
    expect(e.referenceFree.chosen.weights).toBeDefined();
    // Every source of the corpus has under 20 runs, so all are pooled into one group, "other": no source can be
    // left out, and the table must not print the in-sample AUROC under "chosen without it" as if it were held out.
    expect(e.referenceFree.sources.map((s) => s.source)).toEqual(['other']);
    expect(e.referenceFree.heldOutPossible).toBe(false);
    expect(e.referenceFree.sources[0]!.heldOut).toBeNull();
    expect(e.referenceFree.mean.heldOut).toBeNull();
    expect(r.stdout).toMatch(/not held out: the runs form one group \(other, \d+ runs\), so no source can be left out/);
    expect(r.stdout).toContain('chosen on every source (in-sample only: not checked on a held-out source): priorWeights');
  }, 180_000);

  it('names a bad option in one line', async () => {
    const r = await cli('train', CORPUS);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/--out FORECAST.json is required/);
    const b = await cli('train', '--out', path.join(dir, 'x.json'), '--folds', '1', CORPUS);
    expect(b.code).toBe(1);
    expect(b.stderr).toMatch(/--folds must be an integer >= 2, got '1'/);
    // The within-task pairwise term's weights: numbers of 0 or more, each once.
    const c = await cli('train', '--out', path.join(dir, 'x.json'), '--pair-weights', '0,-1', CORPUS);
    expect(c.code).toBe(1);
    expect(c.stderr).toMatch(/--pair-weights must be weights of 0 or more separated by commas, got '-1' in '0,-1'/);
    const d = await cli('train', '--out', path.join(dir, 'x.json'), '--pair-weights', '0,1,1', CORPUS);
    expect(d.code).toBe(1);
    expect(d.stderr).toMatch(/--pair-weights names a weight twice: '0,1,1'/);
    const e = await cli('train', '--out', path.join(dir, 'x.json'), '--default-map', 'tasks', CORPUS);
    expect(e.code).toBe(1);
    expect(e.stderr).toMatch(/--default-map must be runs or sources, got 'tasks'/);
  });
});
