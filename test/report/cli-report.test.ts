import { mkdtempSync, readFileSync, readdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { CorpusReport } from '../../src/report/types.js';
import { cli } from '../cli/run-cli.js';
import { CORPUS } from './corpus-fixture.js';

const REPEATED = join(CORPUS, 'SWE-agent__mini-swe-agent__pull-refs/output');
const JAVA = join(CORPUS, 'multi-swe-bench__experiments');

describe('steplens report', () => {
  it('prints a readable summary and writes report.md, report.html, report.json, CSVs and SVGs with --out', async () => {
    const out = mkdtempSync(join(tmpdir(), 'steplens-report-'));
    const run = await cli('report', '--out', out, JAVA);
    expect(run.code).toBe(0);
    expect(run.stderr).toBe('');
    expect(run.stdout).toContain('15 trajectories');
    expect(run.stdout).toMatch(/Models \(agent \+ model\): pass rate/);
    const files = readdirSync(out).sort();
    expect(files).toEqual([
      'attempts.csv',
      'lucky-by-model.csv',
      'models.csv',
      'quality-vs-pass-rate.svg',
      'reliability.csv',
      'report.html',
      'report.json',
      'report.md',
      'score-distribution.svg',
      'selection.csv',
      'separation-by-source.csv',
      'separation.csv',
      'tasks.csv',
      'tier-shares.svg',
      'trajectories.csv',
    ]);
    const doc = JSON.parse(readFileSync(join(out, 'report.json'), 'utf8')) as CorpusReport;
    expect(doc.counts.trajectories).toBe(15);
    const csv = readFileSync(join(out, 'trajectories.csv'), 'utf8').trim().split('\n');
    expect(csv).toHaveLength(16);
    expect(csv[0]!.startsWith('task,agent,model,run,outcome,steps,reference_kind')).toBe(true);
    for (const svg of files.filter((f) => f.endsWith('.svg'))) {
      const text = readFileSync(join(out, svg), 'utf8');
      expect(text.startsWith('<svg xmlns="http://www.w3.org/2000/svg"')).toBe(true);
      expect(text.trimEnd().endsWith('</svg>')).toBe(true);
      expect((text.match(/<rect|<circle/g) ?? []).length).toBeGreaterThan(3);
      expect(text).not.toMatch(/NaN|undefined/);
    }
    const md = readFileSync(join(out, 'report.md'), 'utf8');
    expect(md).toContain('![score-distribution.svg](score-distribution.svg)');
    expect(md).toContain('| signal | reference | n_pass | n_fail | within_source | within_source_lo | within_source_hi | sources_counted | sources | within_task |');
    // report.html: one self-contained file, the same charts inline and every table.
    const html = readFileSync(join(out, 'report.html'), 'utf8');
    for (const svg of files.filter((f) => f.endsWith('.svg'))) expect(html).toContain(readFileSync(join(out, svg), 'utf8').trim());
    for (const t of ['Tasks', 'Models (agent + model): pass rate vs. process quality', 'Trajectories']) expect(html).toContain(`>${t}</h2>`);
    expect(html).not.toMatch(/<(?:script|link|img|iframe)\b|(?:src|href)="(?!#)/);
    expect(html.match(/<tr>/g)?.length).toBeGreaterThan(15);
  });

  it('--json prints one JSON document only', async () => {
    const run = await cli('report', '--json', REPEATED);
    expect(run.code).toBe(0);
    const doc = JSON.parse(run.stdout) as CorpusReport;
    expect(doc.generatedBy).toBe('steplens report');
    expect(doc.reliability.configurations).toHaveLength(1);
  });

  it('--outcomes overrides, and --model/--run rename', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'steplens-outcomes-'));
    const file = join(dir, 'o.csv');
    writeFileSync(file, 'task,outcome\npylint-dev__astroid-1196,fail\npylint-dev__astroid-1866,pass\n');
    const run = await cli('report', '--json', '--outcomes', file, '--model', 'm', join(REPEATED, 'deepseek_chat_dev'));
    expect(run.code).toBe(0);
    const doc = JSON.parse(run.stdout) as CorpusReport;
    expect(doc.trajectories.map((t) => `${t.outcome}/${t.model}`).sort()).toEqual(['fail/m', 'pass/m']);
  });

  it('bad usage and bad input are one-line errors', async () => {
    const none = await cli('report');
    expect(none.code).toBe(1);
    expect(none.stderr).toMatch(/^steplens report: no PATH given/);
    const missing = await cli('report', '/nonexistent/steplens');
    expect(missing.code).toBe(1);
    expect(missing.stderr).toBe('steplens report: /nonexistent/steplens: no such file or directory\n');
    const dir = mkdtempSync(join(tmpdir(), 'steplens-empty-'));
    writeFileSync(join(dir, 'x.json'), '{"hello": 1}');
    const empty = await cli('report', dir);
    expect(empty.code).toBe(1);
    expect(empty.stderr).toMatch(/no trajectory found/);
    const badOutcomes = await cli('report', '--outcomes', join(dir, 'x.json'), REPEATED);
    expect(badOutcomes.code).toBe(1);
    expect(badOutcomes.stderr).toMatch(/x\.json line 1: missing task/);
  });

  it('--manifest: file paths are relative to the manifest folder; a manifest that names none of the runs is warned about', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'steplens-manifest-'));
    const run = join(REPEATED, 'deepseek_chat_dev/pylint-dev__astroid-1196/pylint-dev__astroid-1196.traj.json');
    const folder = join(REPEATED, 'deepseek_chat_dev/pylint-dev__astroid-1196');
    // Relative to the working directory, not to the manifest's folder: names nothing.
    writeFileSync(join(dir, 'wrong.jsonl'), `${JSON.stringify({ file: 'pylint-dev__astroid-1196.traj.json', agent: 'a', model: 'm' })}\n`);
    const wrong = await cli('report', '--manifest', join(dir, 'wrong.jsonl'), folder);
    expect(wrong.stderr).toMatch(/^warning: --manifest .*wrong\.jsonl: none of its 1 rows names a log found in the paths given .*relative to the manifest's folder/m);
    expect(wrong.stdout).not.toMatch(/^a +m /m);
    // The same row with a path from the manifest's folder: applied, and no warning.
    writeFileSync(join(dir, 'right.jsonl'), `${JSON.stringify({ file: relative(dir, run), agent: 'a', model: 'm' })}\n`);
    const right = await cli('report', '--manifest', join(dir, 'right.jsonl'), folder);
    expect(right.stderr).not.toMatch(/warning: --manifest/);
    expect(right.stdout).toMatch(/^a +m /m);
  });

  it('reads a log reached twice (a symlink to it in the same walk) once, naming the link as skipped', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'steplens-links-'));
    const run = join(REPEATED, 'deepseek_chat_dev/pylint-dev__astroid-1196/pylint-dev__astroid-1196.traj.json');
    writeFileSync(join(dir, 'a.traj.json'), readFileSync(run));
    symlinkSync(join(dir, 'a.traj.json'), join(dir, 'b.traj.json'));
    const res = await cli('report', dir);
    expect(res.code).toBe(0);
    // audit19: one of each in the singular (was "1 trajectories ..., 1 tasks, 1 sources").
    expect(res.stdout).toContain('1 trajectory from 2 files (1 skipped: 1 the same file as another), 1 task, 1 source (agent + model)');
    expect(res.stderr).toBe(`skipped ${join(dir, 'b.traj.json')}: the same file as ${join(dir, 'a.traj.json')}, read once\n`);
  });

  it('--manifest: two rows that disagree on one file are one error naming the line; agreeing repeats are fine', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'steplens-manifest-twice-'));
    const folder = join(REPEATED, 'deepseek_chat_dev/pylint-dev__astroid-1196');
    const file = relative(dir, join(folder, 'pylint-dev__astroid-1196.traj.json'));
    const row = (resolved: boolean) => JSON.stringify({ file, agent: 'a', model: 'm', resolved });
    writeFileSync(join(dir, 'twice.jsonl'), `${row(true)}\n${row(false)}\n`);
    const refused = await cli('report', '--manifest', join(dir, 'twice.jsonl'), folder);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toBe(`steplens report: ${join(dir, 'twice.jsonl')}:2: a second row for ${file} (first on line 1) that says otherwise\n`);
    writeFileSync(join(dir, 'same.jsonl'), `${row(true)}\n${row(true)}\n`);
    expect((await cli('report', '--manifest', join(dir, 'same.jsonl'), folder)).code).toBe(0);
  });
});
