/**
 * The `--outcomes`, `--sources` and `--runs` tables (review s42): errors name the line an editor shows (blank lines
 * counted); a row cut short before its outcome, or with a quote left open, is refused rather than read as `unknown`;
 * two rows that disagree about one run are refused naming both lines, as `--manifest` refuses them. Each with the
 * sample runs, one clear error, nothing written on stdout.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { packageRoot } from '../../src/package-files.js';
import { cli } from './run-cli.js';

const RUNS = path.join(packageRoot(), 'examples/runs');
const dir = mkdtempSync(path.join(tmpdir(), 'steplens-tables-'));
const T = 'pylint-dev__astroid-1196';

function table(name: string, text: string): string {
  const file = path.join(dir, name);
  writeFileSync(file, text);
  return file;
}

const oneLine = (r: { code: number; stdout: string; stderr: string }, line: string) => expect(r).toEqual({ code: 1, stdout: '', stderr: `${line}\n` });

describe('--outcomes tables', () => {
  it('name the line an editor shows, blank lines counted', async () => {
    const f = table('blank.csv', `task,outcome,run\n\n${T},pass,deepseek_chat_dev\n\n\n${T},passs,deepseek_chat_dev_rerun\n`);
    oneLine(await cli('report', RUNS, '--outcomes', f), `steplens report: ${f} line 6: outcome 'passs' is not one of pass, fail, censored, unknown`);
    const j = table('blank.jsonl', `{"task":"${T}","outcome":"pass"}\n\n{"task":"${T}","outcome":"maybe"}\n`);
    oneLine(await cli('report', RUNS, '--outcomes', j), `steplens report: ${j} line 3: outcome 'maybe' is not one of pass, fail, censored, unknown`);
  });

  it('refuse a row without its outcome cell or with a quote left open (it was read as unknown for every run of the task)', async () => {
    const short = table('short.csv', `task,outcome,run\n${T}\n`);
    oneLine(await cli('report', RUNS, '--outcomes', short), `steplens report: ${short} line 2: no outcome (the row ends before its outcome column)`);
    const quote = table('quote.csv', 'task,outcome,run\n"django__django-13401,fail,deepseek_bench1\n');
    oneLine(await cli('report', RUNS, '--outcomes', quote), `steplens report: ${quote} line 2: a quote is not closed (a cell holding a line break is not read)`);
    const json = table('short.jsonl', `{"task":"${T}"}\n`);
    oneLine(await cli('calibrate', RUNS, '--outcomes', json), `steplens calibrate: ${json} line 1: no outcome (the row ends before its outcome column)`);
  });

  it('refuse two rows that disagree about one run, as --manifest does; an identical repeat is read once', async () => {
    const dup = table('dup.csv', `task,outcome,run\n${T},fail,deepseek_chat_dev\n${T},pass,deepseek_chat_dev\n`);
    oneLine(await cli('report', RUNS, '--outcomes', dup), `steplens report: ${dup} line 3: a second row for task ${T}, run deepseek_chat_dev (first on line 2) that says otherwise`);
    const same = table('same.csv', `${readFileSync(path.join(RUNS, 'outcomes.csv'), 'utf8')}${T},pass,deepseek_chat_dev\n`);
    const r = await cli('report', RUNS, '--outcomes', same, '--json');
    const a = await cli('report', RUNS, '--outcomes', path.join(RUNS, 'outcomes.csv'), '--json');
    expect(r.stdout).toBe(a.stdout);
  }, 60_000);
});

describe('--sources tables', () => {
  it('refuse two rows for one run folder that name another model', async () => {
    const f = table('sources.csv', 'run,agent,model\ndoubao-pro-128k,SWE-agent 0.x,doubao\n\ndoubao-pro-128k,SWE-agent 0.x,gpt-4\n');
    oneLine(
      await cli('calibrate', RUNS, '--outcomes', path.join(RUNS, 'outcomes.csv'), '--sources', f),
      `steplens calibrate: ${f} line 4: a second row for run doubao-pro-128k (first on line 2) that says otherwise`,
    );
  });
});

describe('--runs files', () => {
  it('name the line an editor shows, blank lines counted', async () => {
    const saved = path.join(dir, 'runs.jsonl');
    await cli('calibrate', RUNS, '--outcomes', path.join(RUNS, 'outcomes.csv'), '--save-runs', saved);
    const lines = readFileSync(saved, 'utf8').trimEnd().split('\n');
    const broken = table('runs-broken.jsonl', [...lines.slice(0, 3), '', '{broken', ...lines.slice(3)].join('\n'));
    oneLine(await cli('calibrate', '--runs', broken), `steplens calibrate: ${broken} line 5: not valid JSON`);
  }, 60_000);
});
