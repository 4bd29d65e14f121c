/**
 * Issue 23 through the CLI, in-process (a node process per command cost 0.3-1 s of CPU each before it did anything;
 * test/cli/bin.test.ts shows the bin answers as the sources do): `report` scores every readable run, names each run's reference kind,
 * gives every aggregate its n and interval, ranks with ties and a minimum of runs, measures separation within
 * source beside the pooled figure, and names runs from --outcomes / --manifest rows; what it prints is what
 * its JSON holds.
 */
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli/main.js';
import { packageRoot } from '../../src/package-files.js';
import { MIN_RESAMPLE_UNITS } from '../../src/core/stats/bootstrap.js';
import type { CorpusReport } from '../../src/report/types.js';
import { CORPUS_DIR } from '../fixtures/corpus.js';

const ROOT = packageRoot();
/** 15 SWE-agent 0.x runs of 5 models on 3 Java tasks; no log names its model (the run folder does). */
const JAVA = path.join(CORPUS_DIR, 'multi-swe-bench__experiments');

async function steplens(...args: string[]) {
  let stdout = '';
  let stderr = '';
  const code = await runCli(args, { stdout: (s) => void (stdout += s), stderr: (s) => void (stderr += s), stderrIsTTY: false, cwd: ROOT, env: {} });
  return { code, stdout, stderr };
}

/** An outcomes table naming each Java run folder's model, as the trial's did (`20240825_SWE-agent_<model>` → `<model>`). */
function javaOutcomes(doc: CorpusReport): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'steplens-numbers-'));
  const file = path.join(dir, 'outcomes.csv');
  const rows = doc.trajectories.map((t) => `${t.task},${t.outcome},${t.run},${t.run.replace(/^\d+_SWE-agent_/, '')}`);
  writeFileSync(file, `task,outcome,run,model\n${rows.join('\n')}\n`);
  return file;
}

let plain: CorpusReport;
beforeAll(async () => {
  const r = await steplens('report', '--json', JAVA);
  expect(r.code).toBe(0);
  plain = JSON.parse(r.stdout) as CorpusReport;
});

describe('report scores every readable run', () => {
  it('runs of tasks without an in-folder PTA are scored reference-free, and each row says against what', async () => {
    expect(plain.counts.trajectories).toBe(15);
    expect(plain.counts.scored).toBe(15);
    const kinds = plain.trajectories.map((t) => t.reference?.kind);
    expect(new Set(kinds)).toEqual(new Set(['in-folder', 'reference-free']));
    for (const t of plain.trajectories.filter((x) => x.reference?.kind === 'reference-free')) expect([t.score!.struct, t.score!.cov]).toEqual([null, null]);
    const out = mkdtempSync(path.join(tmpdir(), 'steplens-byref-'));
    const split = await steplens('report', '--by-reference', '--out', out, JAVA);
    expect(split.code).toBe(0);
    const files = readdirSync(out);
    for (const f of [
      'models-in-folder.csv',
      'models-reference-free.csv',
      'separation-in-folder.csv',
      'separation-reference-free.csv',
      'score-distribution-reference-free.svg',
      'quality-vs-pass-rate-in-folder.svg',
    ])
      expect(files).toContain(f);
    const doc = JSON.parse(readFileSync(path.join(out, 'report.json'), 'utf8')) as CorpusReport;
    expect(doc.byReference!.map((b) => [b.reference, b.trajectories])).toEqual([
      ['in-folder', kinds.filter((k) => k === 'in-folder').length],
      ['reference-free', kinds.filter((k) => k === 'reference-free').length],
    ]);
    const csv = readFileSync(path.join(out, 'trajectories.csv'), 'utf8').split('\n');
    expect(csv[0]!.split(',').slice(0, 8)).toEqual(['task', 'agent', 'model', 'run', 'outcome', 'steps', 'reference_kind', 'references']);
    expect(split.stdout).toContain('Models (agent + model), scored reference-free');
  });
});

describe('n and intervals, ranks with ties and a minimum', () => {
  it('every source row carries n, a Wilson pass-rate interval and a seeded bootstrap quality interval', async () => {
    for (const m of plain.models) {
      expect(m.evaluated).toBe(plain.trajectories.filter((t) => t.source === m.source && (t.outcome === 'pass' || t.outcome === 'fail')).length);
      expect(m.scored).toBe(plain.trajectories.filter((t) => t.source === m.source && t.score).length);
      if (m.evaluated > 0) expect(m.passRateInterval).toMatchObject({ level: 0.95 });
      // A mean of fewer than MIN_RESAMPLE_UNITS runs has no interval (2 to 4 collapse onto the estimate).
      if (m.scored > 0) expect(m.meanQualityInterval === null, m.source).toBe(m.scored < MIN_RESAMPLE_UNITS);
      // 3 runs a source: below the default minimum of 10, nothing is ranked.
      expect(m).toMatchObject({ rankPass: null, rankQuality: null, unrankedPass: `n ${m.evaluated} < 10` });
    }
    expect(plain.statistics).toEqual({ level: 0.95, reps: 1000, seed: 1, passRateInterval: 'wilson', minRuns: 10, minPerClass: 3, unit: 'task' });
    const [again, low, one, seven] = await Promise.all([
      steplens('report', '--json', JAVA),
      steplens('report', '--json', '--min-runs', '2', JAVA),
      steplens('report', '--json', '--lenient', CORPUS_DIR),
      steplens('report', '--json', '--lenient', '--seed', '7', CORPUS_DIR),
    ]);
    // Bootstrap intervals are the same for the same seed and move with another (on the whole corpus: 3 runs a
    // source give too few distinct resamples for the seed to show).
    const intervals = (r: { stdout: string }) => {
      const d = JSON.parse(r.stdout) as CorpusReport;
      return [...d.models.map((m) => m.meanQualityInterval), d.separation[0]!.pooled.interval];
    };
    expect(intervals(again)).toEqual(intervals({ stdout: JSON.stringify(plain) }));
    expect((JSON.parse(seven.stdout) as CorpusReport).statistics.seed).toBe(7);
    expect(intervals(seven)).not.toEqual(intervals(one));
    const ranked = (JSON.parse(low.stdout) as CorpusReport).models;
    // gpt-4o-mini has one run with an outcome (two unknown): below 2, listed unranked; the others, 3 runs each, all
    // overlap another's Wilson interval, so they share rank 1.
    for (const m of ranked) expect(m.rankPass, m.source).toBe(m.evaluated >= 2 ? 1 : null);
    expect(ranked.filter((m) => m.rankPass !== null).every((m) => m.rankPassTied)).toBe(true);
    expect(ranked.find((m) => m.evaluated < 2)).toMatchObject({ unrankedPass: 'n 1 < 2' });
    const bad = await steplens('report', '--min-runs', '0', JAVA);
    expect([bad.code, bad.stderr]).toEqual([1, "steplens report: --min-runs must be an integer >= 2 (one run has no interval to tell sources apart), got '0'\n"]);
  }, 180_000);

  it('the terminal prints what the JSON holds: each pass rate and its interval, each n', async () => {
    const text = (await steplens('report', JAVA)).stdout;
    for (const m of plain.models) {
      const iv = m.passRateInterval!;
      const cell = `${(100 * m.passRate!).toFixed(1)} % [${(100 * iv.lo).toFixed(1)}, ${(100 * iv.hi).toFixed(1)}]`;
      const line = text.split('\n').find((l) => l.includes(`(model not named) ${m.run!}`) && l.includes(cell));
      expect(line, m.source).toBeDefined();
      const iv2 = m.meanQualityInterval;
      expect(line).toContain(`${m.meanQuality!.toFixed(1)} ${iv2 ? `[${iv2.lo.toFixed(1)}, ${iv2.hi.toFixed(1)}]` : '[-]'}`);
    }
    const total = plain.separation[0]!;
    // The pooled interval resamples tasks: none below MIN_RESAMPLE_UNITS of them.
    const pi = total.pooled.interval;
    const so = total.pooled.sourceOnlyInterval;
    expect(text).toContain(
      `pooled ${total.pooled.auroc!.toFixed(3)} ${pi ? `[${pi.lo.toFixed(3)}, ${pi.hi.toFixed(3)}]` : '[-]'} on ${total.nPass} passing / ${total.nFail} failing, beside ${total.pooled.sourceOnly!.toFixed(3)} ${so ? `[${so.lo.toFixed(3)}, ${so.hi.toFixed(3)}]` : '[-]'} for the source alone`,
    );
  });
});

describe('separation within source, within task, pooled', () => {
  it('per score: the sources with their n, the within-task pairs, and the pooled AUROC beside source-only', () => {
    const total = plain.separation.find((s) => s.signal === 'total')!;
    expect(total.withinSource.sources.map((s) => s.nPass + s.nFail).reduce((a, b) => a + b, 0)).toBe(total.nPass + total.nFail);
    // Five sources of 3 runs: none has 3 passing and 3 failing, so there is no within-source mean, and the line says so.
    expect(total.withinSource).toMatchObject({ mean: null, counted: 0, minPerClass: 3 });
    expect(total.withinTask.pairs).toBe(0);
    expect(total.pooled.sourceOnly).not.toBeNull();
  });
});

describe('--outcomes and --manifest name the runs, the same way for report and calibrate', () => {
  it('an outcomes row with a model column names the model of the runs it matches', async () => {
    const file = javaOutcomes(plain);
    const [rep, cal] = await Promise.all([steplens('report', '--json', '--outcomes', file, JAVA), steplens('calibrate', '--json', '--split', 'none', '--outcomes', file, JAVA)]);
    const doc = JSON.parse(rep.stdout) as CorpusReport;
    const models = doc.models.map((m) => m.source).sort();
    expect(models).toEqual(['swe-agent + deepseek-chat-v2', 'swe-agent + deepseek-coder-v2', 'swe-agent + doubao-pro-128k', 'swe-agent + gpt-4o-2024-05-13', 'swe-agent + gpt-4o-mini-2024-07-18']);
    expect(rep.stdout).not.toContain('(model not named)');
    const sources = (JSON.parse(cal.stdout) as { tradeoff: { chosen: { bySource: Array<{ source: string }> } } }).tradeoff.chosen.bySource.map((s) => s.source).sort();
    // calibrate leaves out runs without a pass/fail outcome: gpt-4o-mini has one evaluated run of 3.
    expect(sources.every((s) => models.includes(s))).toBe(true);
    expect(sources.length).toBeGreaterThanOrEqual(4);
  });

  it('a manifest row names task, agent, model and outcome of its file', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'steplens-manifest-'));
    const manifest = path.join(dir, 'manifest.jsonl');
    const lines = plain.trajectories.map((t) =>
      JSON.stringify({ file: path.relative(dir, t.id), agent: 'SWE-agent 0.x', model: t.run.replace(/^\d+_SWE-agent_/, ''), resolved: t.outcome === 'pass' }),
    );
    writeFileSync(manifest, `${lines.join('\n')}\n`);
    const doc = JSON.parse((await steplens('report', '--json', '--manifest', manifest, JAVA)).stdout) as CorpusReport;
    expect(doc.models.map((m) => m.source)).toContain('SWE-agent 0.x + doubao-pro-128k');
    expect(doc.trajectories.every((t) => t.outcomeSource === '--manifest' && t.agent === 'SWE-agent 0.x')).toBe(true);
    const bad = await steplens('report', '--manifest', path.join(dir, 'none.jsonl'), JAVA);
    expect(bad.stderr).toMatch(/^steplens report: --manifest \S+none\.jsonl: cannot read the file: no such file\n$/);
  });
});

describe('best-of-N per source, by the composite and by pPass with --forecast', () => {
  it('the repeated astroid runs form one group per task: top pick vs random vs oracle, with intervals, for both scores', async () => {
    const repeated = path.join(CORPUS_DIR, 'SWE-agent__mini-swe-agent__pull-refs/output');
    const forecast = path.join(mkdtempSync(path.join(tmpdir(), 'steplens-bon-')), 'forecast.json');
    const trained = await steplens('train', '--out', forecast, '--folds', '2', JAVA, repeated);
    expect(trained.code).toBe(0);
    const r = await steplens('report', '--json', '--forecast', forecast, repeated);
    const doc = JSON.parse(r.stdout) as CorpusReport;
    expect(doc.trajectories.filter((t) => t.score).every((t) => typeof t.pPass === 'number' && t.pPass >= 0 && t.pPass <= 1)).toBe(true);
    expect(doc.separation.map((s) => s.signal)).toContain('pPass');
    const source = 'mini-swe-agent 2.2.7 + deepseek/deepseek-chat';
    for (const score of ['total', 'pPass'] as const) {
      const all = doc.selection.find((s) => s.score === score && s.source === 'all')!;
      const own = doc.selection.find((s) => s.score === score && s.source === source)!;
      // pylint-dev__astroid-1196 and -1866: 3 runs each, 2 passing, so a random pick resolves 2/3 and the oracle 1.
      expect(all).toMatchObject({ groups: 2, runs: 6, random: { resolved: 4 / 3, rate: 2 / 3 }, oracle: { resolved: 2, rate: 1 } });
      // 2 groups: too few to resample (MIN_RESAMPLE_UNITS), so no interval rather than [1.000, 1.000].
      expect([all.top.interval, all.random.interval, all.oracle.interval, all.gapInterval]).toEqual([null, null, null, null]);
      expect(own.groups).toBe(2);
    }
    const text = (await steplens('report', '--forecast', forecast, repeated)).stdout;
    // Trained on these very runs: the line says so beside its figures.
    expect(text).toMatch(/^best-of-N by pPass \(in-sample: the forecaster was trained on 6 of these 6 runs, so the figures are optimistic\) over 2 groups/m);
    // Calibration of pPass per source and over all: ECE with n, its interval and a perfectly calibrated forecaster's ECE at that n.
    const runs = doc.trajectories.filter((t) => typeof t.pPass === 'number' && (t.outcome === 'pass' || t.outcome === 'fail'));
    const own = doc.calibration!.find((c) => c.source === source)!;
    const mine = runs.filter((t) => t.source === source);
    expect(own.n).toBe(mine.length);
    expect(own.meanPredicted).toBeCloseTo(mine.reduce((a, t) => a + t.pPass!, 0) / mine.length, 12);
    expect(own.observedRate).toBeCloseTo(mine.filter((t) => t.outcome === 'pass').length / mine.length, 12);
    expect(own.ece).toBeGreaterThanOrEqual(0);
    expect(own.perfect!.mean).toBeGreaterThan(0);
    expect(own.perfect!.hi).toBeGreaterThanOrEqual(own.perfect!.mean);
    expect(own.bins.reduce((a, b) => a + b.n, 0)).toBe(mine.length);
    expect(doc.calibration!.at(-1)!).toMatchObject({ source: 'all', n: runs.length });
    expect(text).toMatch(/^Calibration of pPass per source: ECE/m);
    expect(text).toMatch(/^Reliability diagram of pPass per source/m);
    expect(text).toContain(own.ece!.toFixed(3).replace(/0+$/, ''));
    // Without a forecaster there is no pPass to calibrate.
    expect((JSON.parse((await steplens('report', '--json', repeated)).stdout) as CorpusReport).calibration).toBeUndefined();
  }, 180_000);
});
