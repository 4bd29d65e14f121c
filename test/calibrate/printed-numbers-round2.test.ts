/**
 * audit22 (issue 26, "within source beside every pooled figure"), on the project's scored runs:
 * - `calibrate --weights` printed its AUROCs pooled over sources only: each candidate now has its AUROC within each
 *   source, with n (passing / failing) and a 95 % interval (tasks resampled), in the text and in --json;
 * - the naive rule's line gave percentages with no n and no interval;
 * - the table titled "chosen policy per source" showed the written policy (after the held-out check), not a choice
 *   per source, and "vs chosen" named the written policy while the in-sample choice differed;
 * - the written policy's separation line said "mean over 1 of 1 sources";
 * - models.csv carried the Lucky share twice, as `lucky` and `lucky_rate` (one value), the interval under the second name.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { wilsonInterval } from '../../src/core/stats/interval.js';
import { cli, cliShared } from '../cli/run-cli.js';
import { CORPUS } from '../report/corpus-fixture.js';

const RUNS = 'test/fixtures/early-stop-runs.jsonl.gz';
const pct = (x: number) => `${(100 * x).toFixed(1)}%`;

interface Cell {
  auroc: number | null;
  interval: { lo: number; hi: number } | null;
}
interface Row {
  source: string;
  passing: number;
  failing: number;
  counted: boolean;
  aurocs: Record<string, Cell>;
}

describe('calibrate --weights: each AUROC within source beside the pooled one', () => {
  it('prints every source with its n and each candidate with an interval, and --json has them', async () => {
    const [text, json] = await Promise.all([cliShared('calibrate', '--runs', RUNS, '--weights', '--split', 'none'), cliShared('calibrate', '--runs', RUNS, '--weights', '--split', 'none', '--json')]);
    expect(text.code).toBe(0);
    const ref = (JSON.parse(json.stdout) as { weights: { auroc: { reference: { runs: number; withinSource: { sources: Row[]; counted: number; mean: Record<string, Cell> } } } } }).weights.auroc
      .reference;
    const ws = ref.withinSource;
    // Every run with a reference is in one source's row.
    expect(ws.sources.reduce((n, s) => n + s.passing + s.failing, 0)).toBe(ref.runs);
    const counted = ws.sources.filter((s) => s.counted);
    expect(counted.length).toBe(ws.counted);
    expect(counted.length).toBeGreaterThan(0);
    for (const s of counted) {
      for (const c of ['fittedHeldOut', 'fittedInSample', 'paper', 'struct', 'cov', 'coh', 'temp']) {
        const a = s.aurocs[c]!;
        expect(a.auroc).not.toBeNull();
        expect(a.interval).not.toBeNull();
        expect(a.interval!.lo).toBeLessThanOrEqual(a.auroc!);
        expect(a.interval!.hi).toBeGreaterThanOrEqual(a.auroc!);
      }
      const cell = (a: Cell) => `${a.auroc!.toFixed(3)} \\[${a.interval!.lo.toFixed(2)}, ${a.interval!.hi.toFixed(2)}\\]`;
      const name = s.source.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
      expect(text.stdout).toMatch(
        new RegExp(`\\n${name} +${s.passing + s.failing} \\(${s.passing} / ${s.failing}\\) +${cell(s.aurocs.fittedHeldOut!)} +${cell(s.aurocs.fittedInSample!)} +${cell(s.aurocs.paper!)}`),
      );
    }
    expect(text.stdout).toMatch(/\nwithin source \(runs with a reference; 95 % bootstrap interval/);
    expect(text.stdout).toMatch(new RegExp(`\\nmean within source \\(${ws.counted} sources?\\) +\\d\\.\\d{3} \\[`));
  }, 120_000);
});

describe('calibrate: the naive rule, the written policy and counts of one', () => {
  it('gives the naive rule its n and Wilson intervals, and names the written policy as such', async () => {
    const run = await cli('calibrate', '--runs', RUNS);
    expect(run.code).toBe(0);
    const m = /\nnaive rule "stop at occurrence #\d+ of one exact action" \(anything in between; Wilson 95% intervals\): stops (\d+)\/(\d+) \((\S+) \[(\S+), (\S+)\]\) passing, (\d+)\/(\d+) /.exec(
      run.stdout,
    );
    expect(m, run.stdout.slice(0, 6000)).not.toBeNull();
    const [k, n] = [Number(m![1]), Number(m![2])];
    expect(n).toBe(192);
    const iv = wilsonInterval(k, n);
    expect([m![3], m![4], m![5]]).toEqual([pct(k / n), pct(iv.lo), pct(iv.hi)]);
    expect(Number(m![7])).toBe(810);
    // The written policy (warn only here: no stop is confirmed on every split) is not the in-sample choice.
    expect(run.stdout).not.toContain('chosen policy per source');
    expect(run.stdout).toMatch(
      /\ndefault policy \(no stop\) vs the written policy \(no stop; the in-sample choice, [^)]+, was not confirmed whole held out\), both measured on every run \(in-sample\):/,
    );
    expect(run.stdout).toMatch(/\nthe written policy \(no stop\) per source, on each source's runs \(in-sample; one policy for all, not chosen per source\)/);
    expect(run.stdout).toMatch(/\nwritten, reference-free +0\/192 /);
  }, 120_000);

  it("says '1 of 1 source', not '1 of 1 sources', on one source's runs", async () => {
    // The fixture's CodeR runs alone, as saved (header kept).
    const lines = gunzipSync(readFileSync(RUNS))
      .toString('utf8')
      .split('\n')
      .filter((l) => l.trim() !== '');
    const one = [lines[0]!, ...lines.slice(1).filter((l) => (JSON.parse(l) as { source: string }).source === 'CodeR + gpt-4')];
    expect(one.length).toBeGreaterThan(100);
    const file = path.join(mkdtempSync(path.join(tmpdir(), 'audit22-')), 'coder.jsonl');
    writeFileSync(file, `${one.join('\n')}\n`);
    const run = await cli('calibrate', '--runs', file, '--split', 'none');
    expect(run.code).toBe(0);
    expect(run.stdout).not.toMatch(/ of 1 sources/);
    expect(run.stdout).toMatch(/within source \S+ \[[^\]]+\] \(mean over 1 of 1 source; tasks resampled\)/);
  }, 120_000);
});

describe('report: models.csv names the Lucky share once', () => {
  it('has lucky with its interval as ideal and solid have theirs, not lucky and lucky_rate (the same share twice)', async () => {
    const out = mkdtempSync(path.join(tmpdir(), 'audit22-report-'));
    const run = await cli('report', '--out', out, path.join(CORPUS, 'multi-swe-bench__experiments'));
    expect(run.code).toBe(0);
    const [header, ...rows] = readFileSync(path.join(out, 'models.csv'), 'utf8').trimEnd().split('\n');
    const cols = header!.split(',');
    expect(cols).not.toContain('lucky_rate');
    const at = cols.indexOf('lucky');
    expect(cols.slice(cols.indexOf('ideal'), at + 3)).toEqual(['ideal', 'ideal_lo', 'ideal_hi', 'solid', 'solid_lo', 'solid_hi', 'lucky', 'lucky_lo', 'lucky_hi']);
    const report = JSON.parse(readFileSync(path.join(out, 'report.json'), 'utf8')) as { models: Array<{ luckyRate: number | null; luckyRateInterval: { lo: number } | null }> };
    expect(rows.length).toBe(report.models.length);
    rows.forEach((r, i) => {
      const m = report.models[i]!;
      const cell = r.split(',')[at + 1]!;
      expect(cell).toBe(m.luckyRateInterval === null ? '' : String(Math.round(m.luckyRateInterval.lo * 1000) / 1000));
    });
  }, 120_000);
});
