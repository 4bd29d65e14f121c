/** Calibration across sources: per-source caps, leave-one-source-out, the portable choice, and the source inputs. */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { calibrateTradeoff, portableCalibration, splitBySource, type TradeoffRun } from '../../src/core/calibrate/index.js';
import { readScoredRuns, writeScoredRuns, type ScoredRun } from '../../src/cli/scored-runs.js';
import type { State } from '../../src/core/types.js';
import { parseSourcesTable, sourceOf } from '../../src/report/sources-table.js';
import { distinct, trun, type StateSpec } from './states.js';

const retries: StateSpec[] = [{ stage: 'E', hash: 'x' }, ...Array.from({ length: 4 }, () => ({ stage: 'V' as const, hash: 'y' }))];
const nothing: StateSpec[] = [
  { stage: 'O', hash: 'n', kind: 'none' },
  { stage: 'O', hash: 'n', kind: 'none' },
];
const withSource = (r: TradeoffRun, source: string): TradeoffRun => ({ ...r, source, agent: source, model: 'm' });

// Sources A, B, C: 10 passing and 5 failing runs each. Every failing run retries 3 times and then emits
// two turns with no action. Only source A's passing runs retry too (as CodeR's do), so blind retry looks
// safe on B and C and is not on A; "no action" is safe everywhere.
function source(name: string): TradeoffRun[] {
  const out: TradeoffRun[] = [];
  for (let i = 0; i < 10; i++) out.push(withSource(trun(`${name}p${i}`, `${name}-t${i}`, true, name === 'A' ? [...retries, ...distinct(3, 'a')] : distinct(8, 'c')), name));
  for (let i = 0; i < 5; i++) out.push(withSource(trun(`${name}f${i}`, `${name}-t${i}`, false, [...distinct(3, 'd'), ...retries, ...nothing, ...distinct(6, 'e')]), name));
  return out;
}
const RUNS = [...source('A'), ...source('B'), ...source('C')];
const OPTIONS = { maxFalseStop: 0.3, candidates: { blindRetry: [3], regressionLoop: [], cycle: [], explorationStreak: [], noAction: [2], lowScore: [] } };

describe('calibration across sources', () => {
  it('a per-source cap rules out a stop that the pooled bound allows', () => {
    const pooled = calibrateTradeoff(RUNS, { ...OPTIONS, maxFalseStop: 0.5 });
    if (!pooled.ok) throw new Error(pooled.error);
    expect(pooled.value.chosen.settings).toMatchObject({ blindRetry: 3 });
    const capped = calibrateTradeoff(RUNS, { ...OPTIONS, maxFalseStop: 0.5, sourceMax: 0.02 });
    if (!capped.ok) throw new Error(capped.error);
    expect(capped.value.chosen.settings).toMatchObject({ blindRetry: null, noAction: 2 });
    expect(capped.value.chosen.bySource!.map((s) => [s.source, s.modes.referenceFree.passingStopped, s.modes.referenceFree.failingStopped])).toEqual([
      ['A', 0, 5],
      ['B', 0, 5],
      ['C', 0, 5],
    ]);
    expect(
      calibrateTradeoff(
        RUNS.map((r) => ({ ...r, source: undefined })),
        { sourceMax: 0.02 },
      ),
    ).toMatchObject({ ok: false });
  });

  it("leave-one-source-out: the policy chosen without A stops all of A's passing runs", () => {
    const r = splitBySource(RUNS, OPTIONS);
    if (!r.ok) throw new Error(r.error);
    const a = r.value.folds.find((f) => f.holdout === 'A')!;
    expect(a.trainingSources).toEqual(['B', 'C']);
    expect(a.settings).toMatchObject({ blindRetry: 3 });
    expect(a.outOfSample.referenceFree).toMatchObject({ passing: 10, passingStopped: 10, failingStopped: 5 });
    expect(r.value.pooledOutOfSample.referenceFree).toMatchObject({ passing: 30, failing: 15 });
    expect(
      splitBySource(
        RUNS.filter((x) => x.source === 'A'),
        OPTIONS,
      ),
    ).toMatchObject({ ok: false });
  });

  it('portable: blind retry is demoted to warn for what it did to A held out; no action stays a stop', () => {
    const r = portableCalibration(RUNS, OPTIONS);
    if (!r.ok) throw new Error(r.error);
    expect(r.value.demoted).toEqual([{ kind: 'blindRetry', round: 1, source: 'A', setting: 'blindRetry 3', mode: 'reference', passingStopped: 10, passing: 10 }]);
    expect(r.value.rounds).toBe(2);
    expect(r.value.result.chosen.settings).toMatchObject({ blindRetry: null, noAction: 2 });
    for (const f of r.value.heldOut.folds) expect(f.outOfSample.referenceFree.passingStopped).toBe(0);
    expect(r.value.heldOut.pooledOutOfSample.referenceFree).toMatchObject({ passingStopped: 0, failingStopped: 15 });
  });
});

describe('source inputs', () => {
  const dir = mkdtempSync(join(tmpdir(), 'steplens-sources-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('a sources table in CSV or JSON Lines names agent and model by run folder', () => {
    const csv = parseSourcesTable('run,agent,model\ncost_2_1,SWE-agent 0.x,gpt-4\nNL2Code__CodeR,CodeR,\n', 's.csv');
    if (!csv.ok) throw csv.error;
    expect(sourceOf(csv.value, 'cost_2_1', 'swe-agent', 'cost_2_1')).toEqual({ agent: 'SWE-agent 0.x', model: 'gpt-4' });
    expect(sourceOf(csv.value, 'NL2Code__CodeR', 'swe-agent', 'x')).toEqual({ agent: 'CodeR', model: 'x' });
    expect(sourceOf(csv.value, 'other', 'a', 'm')).toEqual({ agent: 'a', model: 'm' });
    const jsonl = parseSourcesTable('{"run":"r1","model":"m1"}\n', 's.jsonl');
    expect(jsonl.ok && jsonl.value).toEqual([{ run: 'r1', model: 'm1' }]);
    for (const [text, msg] of [
      ['task,agent\nx,y\n', "header with 'run'"],
      ['run,agent\nx,\n', 'names neither'],
      ['{"agent":"a"}\n', 'missing run'],
      ['{nope\n', 'not valid JSON'],
    ]) {
      const r = parseSourcesTable(text!, 'bad.csv');
      expect(r.ok).toBe(false);
      if (!r.ok) expect(r.error.message).toContain(msg);
    }
  });

  it('scored runs survive a write and a read (gzip or not); a damaged file is one clear error', () => {
    const scored: ScoredRun[] = RUNS.slice(10, 13).map((r) => ({
      run: { ...r, source: r.source!, agent: r.agent!, model: r.model! },
      weights: { task: r.task, source: r.source!, passed: r.passed, referenceFree: { struct: null, cov: null, coh: 0.5, temp: 0.25 }, reference: null }, // as scoreKnownRuns names it: the run's source (read back from the run's line)
    }));
    // The repeat detectors read the environment-change and variant flags: they must survive the file too.
    const first = scored[0]!.run;
    scored[0]!.run = { ...first, states: first.states.map((s, i) => (i === 1 ? { ...s, changesEnv: true as const } : i === 2 ? { ...s, variant: true as const } : s)) };
    for (const name of ['runs.jsonl', 'runs.jsonl.gz']) {
      const file = join(dir, name);
      writeScoredRuns(file, scored, 'test');
      const back = readScoredRuns(file);
      expect(back.map((b) => b.run.id)).toEqual(scored.map((s) => s.run.id));
      const facts = (st: readonly State[]) => st.map((s) => [s.stage, s.kind, s.failed, s.cost, s.changesFile, s.changesEnv === true, s.variant === true]);
      expect(facts(back[0]!.run.states)).toEqual(facts(scored[0]!.run.states));
      expect(back[0]!.run.states[1]!.changesEnv).toBe(true);
      expect(back[0]!.run.states[2]!.variant).toBe(true);
      expect(back[0]!.run.states[4]!.hash).toBe(back[0]!.run.states[5]!.hash);
      expect(back[0]!.run.states[3]!.hash).not.toBe(back[0]!.run.states[4]!.hash);
      expect(back[0]!.run.totals).toEqual(scored[0]!.run.totals);
      expect(back[0]!.weights).toEqual(scored[0]!.weights);
    }
    const bad = join(dir, 'bad.jsonl');
    writeFileSync(bad, '{"format":"steplens-scored-runs","version":2}\n{"id":"x"}\n');
    expect(() => readScoredRuns(bad)).toThrow(/bad\.jsonl line 2: task/);
    writeFileSync(bad, '{"hello":1}\n');
    expect(() => readScoredRuns(bad)).toThrow(/not a steplens-scored-runs v2 file/);
    // A version 1 file lacks the flags the repeat detectors read today: refused, not replayed differently.
    writeFileSync(bad, '{"format":"steplens-scored-runs","version":1}\n');
    expect(() => readScoredRuns(bad)).toThrow(/not a steplens-scored-runs v2 file \(version/);
  });
});
