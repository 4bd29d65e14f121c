/**
 * `train` names runs as `report` and `calibrate` do (issue 23 item 5; report/run-naming.ts): an `--outcomes`
 * row's model column and a `--manifest` row name each run's source, and a model nobody names stays its own
 * source per run folder instead of merging every unnamed model into one.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TrainEvaluation } from '../../src/core/forecast/train.js';
import type { CorpusReport } from '../../src/report/types.js';
import { CORPUS_DIR } from '../fixtures/corpus.js';
import { cli } from './run-cli.js';

/** 15 SWE-agent 0.x runs of 5 models on 3 Java tasks; no log names its model (the run folder does). */
const JAVA = path.join(CORPUS_DIR, 'multi-swe-bench__experiments');
const MODELS = ['deepseek-chat-v2', 'deepseek-coder-v2', 'doubao-pro-128k', 'gpt-4o-2024-05-13', 'gpt-4o-mini-2024-07-18'];

const dir = mkdtempSync(path.join(os.tmpdir(), 'steplens-train-naming-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

let report: CorpusReport;
beforeAll(async () => {
  const r = await cli('report', '--json', JAVA);
  expect(r.code).toBe(0);
  report = JSON.parse(r.stdout) as CorpusReport;
}, 120_000);

/** The sources `train --json` evaluated, from the document it wrote, and the sources its terminal table names. */
async function trainSources(...flags: string[]): Promise<{ written: string[]; printed: string }> {
  const out = path.join(dir, `forecast-${flags.length}.json`);
  const [json, text] = await Promise.all([cli('train', '--json', '--out', out, '--folds', '2', ...flags, JAVA), cli('train', '--out', `${out}.txt.json`, '--folds', '2', ...flags, JAVA)]);
  expect(json.code).toBe(0);
  expect(text.code).toBe(0);
  const doc = JSON.parse(readFileSync(out, 'utf8')) as { evaluation: { forecast: TrainEvaluation } };
  expect(JSON.parse(json.stdout)).toEqual(JSON.parse(readFileSync(out, 'utf8')));
  return { written: doc.evaluation.forecast.leaveSourceOut.end.withinSource.sources.map((s) => s.source).sort(), printed: text.stdout };
}

describe('train names runs as report and calibrate do', () => {
  it('without a table, each run folder whose model nobody names is its own source (never one merged source)', async () => {
    const { written, printed } = await trainSources();
    expect(written.length).toBeGreaterThanOrEqual(4);
    expect(written.every((s) => s.startsWith('swe-agent + (model not named) '))).toBe(true);
    for (const s of written) expect(printed).toContain(s);
    expect(written).not.toContain('swe-agent + (model not named)');
  }, 120_000);

  it("an --outcomes row's model column names the source, the same label report gives it", async () => {
    const file = path.join(dir, 'outcomes.csv');
    const rows = report.trajectories.map((t) => `${t.task},${t.outcome},${t.run},${t.run.replace(/^\d+_SWE-agent_/, '')}`);
    writeFileSync(file, `task,outcome,run,model\n${rows.join('\n')}\n`);
    const rep = JSON.parse((await cli('report', '--json', '--outcomes', file, JAVA)).stdout) as CorpusReport;
    const { written, printed } = await trainSources('--outcomes', file);
    const reportSources = rep.models.map((m) => m.source);
    // train keeps only runs with a pass/fail outcome: every source it names is one report names.
    expect(written.every((s) => reportSources.includes(s))).toBe(true);
    expect(written.length).toBeGreaterThanOrEqual(4);
    expect(written.every((s) => MODELS.some((m) => s === `swe-agent + ${m}`))).toBe(true);
    expect(printed).not.toContain('(model not named)');
  }, 120_000);

  it('a --manifest row names agent, model and outcome of its file', async () => {
    const manifest = path.join(dir, 'manifest.jsonl');
    const lines = report.trajectories.map((t) =>
      JSON.stringify({ file: path.relative(dir, t.id), agent: 'SWE-agent 0.x', model: t.run.replace(/^\d+_SWE-agent_/, ''), resolved: t.outcome === 'pass' }),
    );
    writeFileSync(manifest, `${lines.join('\n')}\n`);
    const { written } = await trainSources('--manifest', manifest);
    // The manifest gives every run an outcome, so all five models are sources.
    expect(written).toEqual(MODELS.map((m) => `SWE-agent 0.x + ${m}`));
  }, 120_000);
});
