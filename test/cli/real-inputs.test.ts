/**
 * What a user's own logs meet in the CLI (issue 13): multi-instance OpenHands `output.jsonl`,
 * gzipped and binary files, CodeR's SWE-agent 0.x logs, messages that say one thing once,
 * build-pta's output and duplicate inputs, and a PTA of another task.
 */
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { CORPUS, cli } from './run-cli.js';

const dir = mkdtempSync(join(tmpdir(), 'steplens-real-'));
const OUTPUT_JSONL = join(CORPUS, 'OpenHands__OpenHands/evaluation/benchmarks/multi_swe_bench/examples/output.jsonl');
const PONY = ['ponylang__ponyc-4595', 'ponylang__ponyc-4593', 'ponylang__ponyc-4588'];
const CODER_GZ = join(import.meta.dirname, '..', 'fixtures', 'coder__sympy__sympy-13971.traj.gz');
const DASK = 'christsakm__Trajectories/TODO/dask__dask-8685';
const dask = ['trace_01_gpt-5-2025-08-07', 'trace_02_kimi-k2-instruct-0905'].map((r) => join(CORPUS, DASK, r, 'dask__dask-8685.traj'));
const MINI = join(CORPUS, 'SWE-agent__mini-swe-agent__pull-refs/output/deepseek_chat_dev/pylint-dev__astroid-1196/pylint-dev__astroid-1196.traj.json');

/** One printable stderr line (no control bytes), exit 1, nothing on stdout. */
function expectOneLine(run: { code: number; stdout: string; stderr: string }, ...mentions: string[]) {
  expect(run.code).toBe(1);
  expect(run.stdout).toBe('');
  expect(run.stderr.trimEnd().split('\n')).toHaveLength(1);
  // eslint-disable-next-line no-control-regex -- control characters are what must not reach the terminal
  expect(run.stderr.trimEnd()).not.toMatch(/[\x00-\x08\x0b-\x1f\x7f-\x9f]/);
  for (const m of mentions) expect(run.stderr).toContain(m);
}

describe('an OpenHands output.jsonl holding several instances', () => {
  it('label and score give one result per instance (--json: an array)', async () => {
    const label = await cli('label', OUTPUT_JSONL, '--json');
    expect(label.code).toBe(0);
    const docs = JSON.parse(label.stdout) as Array<{ task: string; steps: unknown[] }>;
    expect(docs.map((d) => d.task)).toEqual(PONY);
    expect(docs.every((d) => d.steps.length > 0)).toBe(true);
    const score = await cli('score', OUTPUT_JSONL, '--json');
    expect(score.code).toBe(0);
    expect((JSON.parse(score.stdout) as Array<{ task: string }>).map((d) => d.task)).toEqual(PONY);
    const text = await cli('score', OUTPUT_JSONL);
    for (const t of PONY) expect(text.stdout).toContain(`${t}: `);
  });

  it('--instance ID picks one; an unknown id and an ambiguous convert list the ids', async () => {
    const one = await cli('label', OUTPUT_JSONL, '--instance', PONY[1]!, '--json');
    expect((JSON.parse(one.stdout) as { task: string }).task).toBe(PONY[1]);
    const converted = await cli('convert', OUTPUT_JSONL, '--instance', PONY[2]!);
    expect(converted.code).toBe(0);
    const all = JSON.parse((await cli('label', OUTPUT_JSONL, '--json')).stdout) as Array<{ steps: unknown[] }>;
    expect(converted.stdout.trim().split('\n')).toHaveLength(all[2]!.steps.length);
    expectOneLine(await cli('convert', OUTPUT_JSONL), 'holds 3 trajectories', ...PONY, '--instance');
    expectOneLine(await cli('score', OUTPUT_JSONL, '--instance', 'nope'), '--instance nope', ...PONY);
  });
});

describe('gzipped and binary files', () => {
  it('every command reads a .gz log as its text', async () => {
    const gz = join(dir, 'run.traj.json.gz');
    writeFileSync(gz, gzipSync(readFileSync(MINI)));
    const plain = JSON.parse((await cli('label', MINI, '--json')).stdout) as unknown;
    const zipped = await cli('label', gz, '--json');
    expect(zipped.code).toBe(0);
    expect(JSON.parse(zipped.stdout)).toEqual(plain);
    expect((await cli('convert', gz)).stdout).toBe((await cli('convert', MINI)).stdout);
    expect((await cli('score', gz, '--json')).stdout).toBe((await cli('score', MINI, '--json')).stdout);
  });

  it('binary data and a truncated gzip give one printable line naming the file', async () => {
    const bin = join(dir, 'image.traj');
    writeFileSync(bin, Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0x0d, 0x49, 0x48, 0x44, 0x52, 0x1b, 0x5b, 0x32, 0x4a]));
    expectOneLine(await cli('label', bin), bin, 'binary');
    const cut = join(dir, 'cut.traj.gz');
    const whole = gzipSync(readFileSync(MINI));
    writeFileSync(cut, whole.subarray(0, whole.length >> 1));
    expectOneLine(await cli('score', cut), cut, 'truncated');
  });
});

describe('SWE-agent 0.x logs of the CodeR variant', () => {
  it('parse as swe-agent (their `messages` holds arrays of messages), without a diagnostic', async () => {
    const run = await cli('label', CODER_GZ, '--json');
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    const doc = JSON.parse(run.stdout) as { format: string; steps: unknown[]; diagnostics: unknown[] };
    expect(doc.format).toBe('swe-agent');
    expect(doc.steps).toHaveLength(24);
    expect(doc.diagnostics).toEqual([]);
  });
});

describe('messages say one thing once', () => {
  it('a bad JSON line names its line once', async () => {
    const lines = readFileSync(OUTPUT_JSONL, 'utf8').trim().split('\n');
    const file = join(dir, 'broken-output.jsonl');
    writeFileSync(file, [lines[0], '{"instance_id": "x", "hist', lines[1]].join('\n'));
    const run = await cli('label', file, '--json');
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/^\S+broken-output\.jsonl: line 2: invalid JSON/m);
    expect(run.stderr).not.toMatch(/line 2: line 2/);
    expect(JSON.parse(run.stdout)).toHaveLength(2);
  });

  it('signal messages count in the right number ("1 blind retry", not "1 blind retries")', async () => {
    const policy = join(dir, 'policy.json');
    writeFileSync(policy, JSON.stringify({ blindRetry: { warn: 1, stop: 2 }, explorationStreak: { warn: 1 }, regressionLoop: { warn: 1 } }));
    // The django run has an exploration streak and a regression loop; the jackson run blind retries (the django run's
    // re-runs all follow a pip install, so they are none).
    const runs = [
      join(CORPUS, 'SWE-agent__mini-swe-agent__pull-refs/output/deepseek_bench1/django__django-13401/django__django-13401.traj.json'),
      join(CORPUS, 'multi-swe-bench__experiments/evaluation/java/verified/20240825_SWE-agent_gpt-4o-mini-2024-07-18/trajs/fasterxml__jackson-databind-3701.traj'),
    ];
    const messages: string[] = [];
    for (const run of runs) {
      const doc = JSON.parse((await cli('score', run, '--policy', policy, '--json')).stdout) as { signals: Array<{ message: string }> };
      messages.push(...doc.signals.map((x) => x.message));
    }
    expect(messages).toContain('1 exploration step in a row without implementing or verifying (warn threshold)');
    expect(messages.some((m) => m.startsWith('1 blind retry in a row'))).toBe(true);
    expect(messages.some((m) => m.startsWith('2 blind retries in a row'))).toBe(true);
    expect(messages.some((m) => m.startsWith('1 edit → failing verification cycle on '))).toBe(true);
    expect(messages.filter((m) => /^1 \S+ (retries|steps|cycles)\b/.test(m))).toEqual([]);
  });

  it('a forced format uses the right article', async () => {
    expectOneLine(await cli('label', MINI, '--format', 'openhands'), 'not an openhands log');
    expectOneLine(await cli('label', OUTPUT_JSONL, '--format', 'atif'), 'not an atif log');
  });
});

describe('build-pta', () => {
  it('an unwritable --out: "cannot write FILE: reason", exit 1, nothing printed before', async () => {
    const blocker = join(dir, 'a-file');
    writeFileSync(blocker, 'x');
    const out = join(blocker, 'sub', 'pta.json');
    expectOneLine(await cli('build-pta', '--task', 'dask__dask-8685', '--out', out, ...dask), `cannot write ${out}: `);
    const ro = join(dir, 'ro');
    mkdirSync(ro, { mode: 0o500 });
    if (process.getuid?.() !== 0) expectOneLine(await cli('build-pta', '--task', 'dask__dask-8685', '--out', join(ro, 'p.json'), ...dask), 'permission denied');
  });

  it('the same file twice, or a copy of it, is used once with a warning', async () => {
    const out = join(dir, 'twice.json');
    const twice = await cli('build-pta', '--task', 'dask__dask-8685', '--out', out, dask[0]!, dask[0]!);
    expect(twice.code).toBe(1);
    expect(twice.stderr).toContain(`${dask[0]} is the same file as ${dask[0]}`);
    expect(twice.stderr).toContain('at least 2 passing trajectories (got 1 distinct of 2 named)');
    const copy = join(dir, 'copy.traj');
    copyFileSync(dask[0]!, copy);
    const copied = await cli('build-pta', '--task', 'dask__dask-8685', '--out', out, dask[0]!, copy, dask[1]!, '--json');
    expect(copied.stderr).toContain(`${copy} is the same run as ${dask[0]}`);
    expect((JSON.parse(copied.stdout) as { references: number }).references).toBe(2);
  });
});

describe('score --pta of another task', () => {
  it('warns naming both task ids; --task says which task the run is', async () => {
    const pta = join(dir, 'dask.json');
    expect((await cli('build-pta', '--task', 'dask__dask-8685', '--out', pta, ...dask)).code).toBe(0);
    const other = await cli('score', MINI, '--pta', pta);
    expect(other.code).toBe(0);
    expect(other.stderr).toMatch(/^warning: .*run of task pylint-dev__astroid-1196, but .* reference of task dask__dask-8685.*--task dask__dask-8685/m);
    // Of the PTA's own task: no task warning (it is one of the runs the PTA was built from: that warning only, messages.test.ts).
    const same = await cli('score', dask[0]!, '--pta', pta);
    expect(same.stderr).toBe(`warning: ${pta} holds the path of ${dask[0]} (a reference it was built from): scored optimistically against it\n`);
    const forced = await cli('score', MINI, '--pta', pta, '--task', 'dask__dask-8685', '--json');
    expect(forced.stderr).toBe('');
    expect((JSON.parse(forced.stdout) as { task: string }).task).toBe('dask__dask-8685');
  });
});
