/**
 * `steplens report` on folders as users have them (issue 13): broken, gzipped and non-log files
 * named with their reason (exit 1 unless --lenient), tasks and models read from the logs or their
 * evaluations and never made up from file names, and `--outcomes` rows for logs that name no model.
 */
import { copyFileSync, cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { cli } from '../cli/run-cli.js';
import { CORPUS } from './corpus-fixture.js';

interface Row {
  task: string | null;
  model: string | null;
  run: string;
  outcome: string;
  id: string;
  unscored?: string;
  source: string;
  steps: number;
  score?: { total: number };
  reference?: { kind: string };
}
interface Doc {
  trajectories: Row[];
  tasks: Array<{ task: string | null }>;
  models: Array<{ model: string | null; run?: string }>;
  inputs: { skipped: Array<{ path: string; reason: string; kind: string }>; problems: Array<{ path: string; at: string }> };
}

const DASK = join(CORPUS, 'christsakm__Trajectories/TODO/dask__dask-8685');
const MINI = join(CORPUS, 'SWE-agent__mini-swe-agent__pull-refs/output/deepseek_chat_dev/pylint-dev__astroid-1196/pylint-dev__astroid-1196.traj.json');
const OUTPUT_JSONL = join(CORPUS, 'OpenHands__OpenHands/evaluation/benchmarks/multi_swe_bench/examples/output.jsonl');
const JAVA_RUN = join(CORPUS, 'multi-swe-bench__experiments/evaluation/java/verified/20240825_SWE-agent_gpt-4o-2024-05-13');

/** A folder with one good plain log, one good gzipped log, and every kind of broken or unrelated file. */
function messyFolder(): string {
  const dir = mkdtempSync(join(tmpdir(), 'steplens-messy-'));
  mkdirSync(join(dir, 'runs'));
  copyFileSync(MINI, join(dir, 'runs', 'pylint-dev__astroid-1196.traj.json'));
  const dask = readFileSync(join(DASK, 'trace_01_gpt-5-2025-08-07/dask__dask-8685.traj'));
  writeFileSync(join(dir, 'runs', 'dask__dask-8685.traj.gz'), gzipSync(dask));
  writeFileSync(join(dir, 'empty.json'), '');
  writeFileSync(join(dir, 'truncated.traj'), dask.subarray(0, 3000));
  writeFileSync(join(dir, 'cut.traj.gz'), gzipSync(dask).subarray(0, 500));
  writeFileSync(join(dir, 'picture.json'), Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0x0d]));
  writeFileSync(join(dir, 'package.json'), '{"name": "x", "version": "1.0.0"}');
  const lines = readFileSync(OUTPUT_JSONL, 'utf8').trim().split('\n');
  writeFileSync(join(dir, 'output.jsonl'), [lines[0], '{"instance_id": "cut', lines[1]].join('\n'));
  return dir;
}

describe('report on a folder with broken, gzipped and unrelated files', () => {
  it('reads .gz logs, names every skipped file and bad line with its reason, exits 1 unless --lenient', async () => {
    const dir = messyFolder();
    const run = await cli('report', '--json', dir);
    expect(run.code).toBe(1);
    const doc = JSON.parse(run.stdout) as Doc;
    expect(doc.trajectories.map((t) => t.task).sort()).toEqual(['dask__dask-8685', 'ponylang__ponyc-4593', 'ponylang__ponyc-4595', 'pylint-dev__astroid-1196']);
    const err = run.stderr.trimEnd().split('\n');
    expect(err).toEqual(
      expect.arrayContaining([
        `skipped ${join(dir, 'cut.traj.gz')}: truncated gzip data`,
        `skipped ${join(dir, 'empty.json')}: the input is empty`,
        `skipped ${join(dir, 'picture.json')}: binary data, not a text log`,
        expect.stringMatching(new RegExp(`^skipped ${join(dir, 'truncated.traj')}: invalid JSON: .*truncated\\?\\)$`)),
        expect.stringMatching(new RegExp(`^skipped ${join(dir, 'package.json')}: could not detect the log format .* keys name, version$`)),
        expect.stringMatching(new RegExp(`^${join(dir, 'output.jsonl')}: line 2: invalid JSON`)),
      ]),
    );
    expect(err).toHaveLength(6);
    // eslint-disable-next-line no-control-regex -- control characters are what must not reach the terminal
    expect(run.stderr).not.toMatch(/[\x00-\x08\x0b-\x1f\x7f-\x9f]/);
    expect(doc.inputs.skipped.map((s) => s.kind).sort()).toEqual(['not_a_log', 'unreadable', 'unreadable', 'unreadable', 'unreadable']);
    expect(doc.inputs.problems).toEqual([expect.objectContaining({ path: join(dir, 'output.jsonl'), at: 'line 2' })]);
    const lenient = await cli('report', '--json', '--lenient', dir);
    expect(lenient.code).toBe(0);
    expect(lenient.stderr).toBe(run.stderr);
  });

  it('a folder of clean logs beside evaluation files and JSON that is no log still exits 0', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'steplens-clean-'));
    copyFileSync(MINI, join(dir, 'pylint-dev__astroid-1196.traj.json'));
    writeFileSync(join(dir, 'package.json'), '{"name": "x"}');
    writeFileSync(join(dir, 'results.json'), JSON.stringify({ resolved: ['pylint-dev__astroid-1196'] }));
    const run = await cli('report', dir);
    expect(run.code).toBe(0);
    expect(run.stderr.trimEnd().split('\n')).toEqual([expect.stringMatching(/^skipped .*package\.json: could not detect the log format/)]);
  });
});

describe('calibrate walks folders the same way', () => {
  it('reads gzipped logs and names a broken file (exit 1 unless --lenient)', async () => {
    const src = join(CORPUS, 'SWE-agent__mini-swe-agent__pull-refs');
    const dir = join(mkdtempSync(join(tmpdir(), 'steplens-cal-gz-')), 'runs');
    cpSync(src, dir, { recursive: true });
    for (const f of readdirSync(dir, { recursive: true, encoding: 'utf8' }).filter((x) => x.endsWith('.traj.json'))) {
      writeFileSync(join(dir, `${f}.gz`), gzipSync(readFileSync(join(dir, f))));
      rmSync(join(dir, f));
    }
    writeFileSync(join(dir, 'empty.json'), '');
    const plain = JSON.parse((await cli('calibrate', '--json', '--split', 'none', src)).stdout) as { runs: { passing: number; failing: number } };
    const zipped = await cli('calibrate', '--json', '--split', 'none', dir);
    expect(zipped.code).toBe(1);
    // The example astropy-12907 run has no outcome; an sb-cli report of another run names its task (a warning, not fatal).
    expect(zipped.stderr).toMatch(new RegExp(`^skipped ${join(dir, 'empty.json')}: the input is empty\nwarning: 1 of 1 runs without an outcome have their task in an evaluation file [^\n]*\n$`));
    expect((JSON.parse(zipped.stdout) as { runs: unknown }).runs).toEqual(plain.runs);
    expect(plain.runs.passing + plain.runs.failing).toBeGreaterThan(10);
    expect((await cli('calibrate', '--json', '--split', 'none', '--lenient', dir)).code).toBe(0);
  });
});

describe('tasks and models come from the logs or their evaluations', () => {
  it('fixtures, mocks and format samples get no task or model made up from their file or folder names', async () => {
    const run = await cli('report', '--json', join(CORPUS, 'OpenHands__OpenHands'), join(CORPUS, 'sachiny0106__Xelron_harbor-copy'));
    const doc = JSON.parse(run.stdout) as Doc;
    const tasks = doc.trajectories.map((t) => t.task);
    const models = doc.trajectories.map((t) => t.model);
    for (const made of ['trajectory', 'basic', 'output', 'openhands_trajectory', 'hello-world.trajectory']) expect(tasks).not.toContain(made);
    for (const made of ['0001-trajectory-format', 'mock_output', 'runtime', 'openhands']) expect(models).not.toContain(made);
    expect(tasks).toContain(null);
    expect(doc.tasks.filter((t) => t.task === null)).toHaveLength(1);
    // Unnamed models are grouped per run (never pooled), and say so.
    const unnamed = doc.models.filter((m) => m.model === null);
    expect(unnamed.length).toBeGreaterThan(1);
    expect(unnamed.every((m) => typeof m.run === 'string')).toBe(true);
    // Naming no task does not leave a run unscored: it is scored reference-free.
    expect(doc.trajectories.filter((t) => t.task === null && t.steps > 0).every((t) => t.reference?.kind === 'reference-free' && t.score !== undefined)).toBe(true);
    const text = await cli('report', join(CORPUS, 'OpenHands__OpenHands'));
    expect(text.stdout).toContain('(task not named)');
    expect(text.stdout).toContain('(model not named) mock_output');
  });

  it('a harness evaluation folder names the model of logs that name none', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'steplens-harness-'));
    const task = 'fasterxml__jackson-core-1142';
    mkdirSync(join(dir, 'myrun'));
    copyFileSync(join(JAVA_RUN, 'trajs', `${task}.traj`), join(dir, 'myrun', `${task}.traj`));
    const evalDir = join(dir, 'logs', 'run_evaluation', 'myrun', 'acme__coder-7b', task);
    mkdirSync(evalDir, { recursive: true });
    writeFileSync(join(evalDir, 'report.json'), JSON.stringify({ [task]: { resolved: true } }));
    const doc = JSON.parse((await cli('report', '--json', dir)).stdout) as Doc;
    expect(doc.trajectories).toEqual([expect.objectContaining({ task, run: 'myrun', model: 'acme__coder-7b', outcome: 'pass' })]);
  });
});

describe('--outcomes rows with task, outcome, run and model', () => {
  it('match on task + run when the log names no model, and the row names it', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'steplens-outcomes-'));
    const file = join(dir, 'outcomes.csv');
    writeFileSync(file, 'task,outcome,run,model\nfasterxml__jackson-core-1142,censored,20240825_SWE-agent_gpt-4o-2024-05-13,gpt-4o-2024-05-13\n');
    const doc = JSON.parse((await cli('report', '--json', '--outcomes', file, JAVA_RUN)).stdout) as Doc;
    const row = doc.trajectories.find((t) => t.task === 'fasterxml__jackson-core-1142')!;
    expect(row.model).toBe('gpt-4o-2024-05-13');
    expect(row.source).toBe('swe-agent + gpt-4o-2024-05-13');
    expect(row.outcome).toBe('censored');
    // The run's other tasks (no row) are still the same run: nothing names their model.
    expect(doc.trajectories.filter((t) => t.task !== 'fasterxml__jackson-core-1142').every((t) => t.model === null)).toBe(true);
  });
});
