/**
 * `steplens score FILE... --jsonl`: many runs in one process (issue 24). One JSON line per trajectory, each
 * equal to what `score FILE --json` prints for it plus the file (and instance) it came from; a file that cannot
 * be scored (unreadable, or a run with no step) is a line naming it, and the files after it are still scored; exit
 * 1 then (0 with --lenient, as `report`). In a file of several runs, so is each instance with no step and each line
 * that could not be read.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import type { scoreDocument } from '../../src/cli/commands/score.js';
import { CORPUS, cli } from './run-cli.js';

type ScoreDoc = ReturnType<typeof scoreDocument>;
type Line = ScoreDoc & { file: string; instance?: string; at?: string; diagnostics?: unknown[]; error?: { code: string; message: string } };

const dir = mkdtempSync(join(tmpdir(), 'steplens-score-many-'));
const DASK = join(CORPUS, 'christsakm__Trajectories/TODO/dask__dask-8685/trace_01_gpt-5-2025-08-07/dask__dask-8685.traj');
const MINI = join(CORPUS, 'SWE-agent__mini-swe-agent__pull-refs/output/deepseek_chat_dev/pylint-dev__astroid-1196/pylint-dev__astroid-1196.traj.json');
const OUTPUT_JSONL = join(CORPUS, 'OpenHands__OpenHands/evaluation/benchmarks/multi_swe_bench/examples/output.jsonl');
const PONY = ['ponylang__ponyc-4595', 'ponylang__ponyc-4593', 'ponylang__ponyc-4588'];

const lines = (stdout: string) =>
  stdout
    .trimEnd()
    .split('\n')
    .map((l) => JSON.parse(l) as Line);
const single = async (file: string, ...flags: string[]) => JSON.parse((await cli('score', file, '--json', ...flags)).stdout) as ScoreDoc | ScoreDoc[];

describe('score FILE... --jsonl', () => {
  it('prints one line per trajectory, each the --json document of its file with the file named', async () => {
    const run = await cli('score', DASK, MINI, OUTPUT_JSONL, '--jsonl');
    expect(run.code).toBe(0);
    expect(run.stderr).toBe('');
    const out = lines(run.stdout);
    expect(out.map((l) => [l.file, l.instance])).toEqual([[DASK, undefined], [MINI, undefined], ...PONY.map((p) => [OUTPUT_JSONL, p])]);
    const [dask, mini, ...pony] = out.map(({ file, instance, ...doc }) => doc);
    expect(dask).toEqual(await single(DASK));
    expect(mini).toEqual(await single(MINI));
    expect(pony).toEqual(await single(OUTPUT_JSONL));
  });

  it('applies the shared flags (--pta, --passed) to every file', async () => {
    const pta = join(dir, 'pta-of-mini.json');
    expect((await cli('build-pta', '--task', 'pylint-dev__astroid-1196', '--out', pta, '--min-refs', '1', MINI)).code).toBe(0);
    const run = await cli('score', MINI, DASK, '--jsonl', '--pta', pta, '--passed');
    const out = lines(run.stdout);
    expect(out.every((l) => l.reference.kind === 'pta')).toBe(true);
    expect(out[0]).toEqual({ file: MINI, ...(await single(MINI, '--pta', pta, '--passed')) });
    // The dask run is of another task than the PTA's: warned about on stderr, scored anyway.
    expect(run.stderr).toContain(`${DASK} is a run of task dask__dask-8685`);
  });

  it('a file that cannot be read is a line naming it; the files after it are still scored; exit 1', async () => {
    const missing = join(dir, 'missing.traj');
    const binary = join(dir, 'image.traj');
    writeFileSync(binary, Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0x0d]));
    const run = await cli('score', missing, MINI, binary, DASK, '--jsonl');
    expect(run.code).toBe(1);
    const out = lines(run.stdout);
    expect(out.map((l) => l.file)).toEqual([missing, MINI, binary, DASK]);
    expect(out[0]).toEqual({ file: missing, error: { code: 'bad_input', message: expect.stringContaining(missing) } });
    expect(out[2]).toEqual({ file: binary, error: { code: 'bad_input', message: expect.stringContaining('binary') } });
    expect(out[1]!.steps).toBe(((await single(MINI)) as ScoreDoc).steps);
    expect(out[3]!.stages).toBe(((await single(DASK)) as ScoreDoc).stages);
    // With --lenient (as report): the same lines, exit 0.
    const lenient = await cli('score', missing, MINI, binary, DASK, '--jsonl', '--lenient');
    expect(lenient.code).toBe(0);
    expect(lenient.stdout).toBe(run.stdout);
  });

  it('a run with no step is not scored: one error naming it (alone), an error line among others', async () => {
    const empty = join(CORPUS, 'SWE-agent__mini-swe-agent__pull-refs/output/deepseek_reasoner_dev/pylint-dev__astroid-1196/pylint-dev__astroid-1196.traj.json');
    const alone = await cli('score', empty, '--json');
    expect(alone.code).toBe(1);
    expect(alone.stdout).toBe('');
    expect(alone.stderr).toBe(`steplens score: ${empty}: no steps found, nothing to score\n`);
    const many = await cli('score', empty, MINI, '--jsonl');
    expect(many.code).toBe(1);
    expect(lines(many.stdout).map((l) => l.error?.code ?? l.steps)).toEqual(['bad_input', ((await single(MINI)) as ScoreDoc).steps]);
    // In a file of several runs, that instance is a line of its own naming it (review s42: it had none), the others are scored.
    const text = readFileSync(OUTPUT_JSONL, 'utf8').trim().split('\n');
    const second = JSON.parse(text[1]!) as { history: unknown[] };
    const withEmpty = join(dir, 'one-empty-output.jsonl');
    writeFileSync(withEmpty, [text[0], JSON.stringify({ ...second, history: [] }), text[2]].join('\n'));
    const oneEmpty = await cli('score', withEmpty, '--jsonl');
    expect(oneEmpty.code).toBe(1);
    const out = lines(oneEmpty.stdout);
    expect(out.map((l) => l.instance)).toEqual(PONY);
    expect(out[1]).toEqual({ file: withEmpty, instance: PONY[1], error: { code: 'bad_input', message: `${withEmpty}: instance ${PONY[1]}: no steps found, nothing to score` } });
    expect(out[2]!.steps).toBeGreaterThan(0);
    expect((await cli('score', withEmpty, '--jsonl', '--lenient')).code).toBe(0);
    // Without --jsonl it is named on stderr.
    expect((await cli('score', withEmpty, '--json')).stderr).toContain(`${withEmpty}: instance ${PONY[1]}: no steps found, nothing to score`);
  });

  it('a file with a skipped line carries its diagnostics and makes the exit 1 (0 with --lenient)', async () => {
    const text = readFileSync(OUTPUT_JSONL, 'utf8').trim().split('\n');
    const broken = join(dir, 'broken-output.jsonl.gz');
    writeFileSync(broken, gzipSync([text[0], '{"instance_id": "x", "hist', text[1]].join('\n')));
    const run = await cli('score', MINI, broken, '--jsonl');
    expect(run.code).toBe(1);
    const out = lines(run.stdout);
    // The line that could not be read is a line of its own, after the file's runs (review s42: it left none).
    expect(out.map((l) => l.instance)).toEqual([undefined, PONY[0], PONY[1], undefined]);
    expect(out[3]).toEqual({ file: broken, at: 'line 2', error: { code: 'bad_input', message: expect.stringMatching(/broken-output\.jsonl\.gz: line 2: invalid JSON/) as unknown } });
    expect(out[0]!.diagnostics).toBeUndefined();
    expect(run.stderr).toMatch(/broken-output\.jsonl\.gz: line 2: invalid JSON/);
    expect((await cli('score', MINI, broken, '--jsonl', '--lenient')).code).toBe(0);
    // A one-run file: its skipped line is in its own JSON line.
    const steps = (await cli('convert', MINI)).stdout.trimEnd().split('\n');
    const cut = join(dir, 'cut.jsonl');
    writeFileSync(cut, [...steps.slice(0, 3), '{"t": 3, "tool', ...steps.slice(3)].join('\n'));
    const one = lines((await cli('score', cut, '--jsonl')).stdout);
    expect(one).toHaveLength(1);
    expect(one[0]!.diagnostics).toEqual([expect.objectContaining({ message: expect.stringContaining('JSON') })]);
  });

  it('--json with several files, --json with --jsonl, and no FILE are usage errors of one line', async () => {
    for (const args of [[MINI, DASK, '--json'], [MINI, '--json', '--jsonl'], ['--jsonl']]) {
      const run = await cli('score', ...args);
      expect(run.code).toBe(1);
      expect(run.stdout).toBe('');
      expect(run.stderr.trimEnd().split('\n')).toHaveLength(1);
    }
    expect((await cli('score', MINI, DASK, '--json')).stderr).toContain('--jsonl');
  });

  it('a bad settings file fails the whole command before any file', async () => {
    const policy = join(dir, 'policy.json');
    writeFileSync(policy, '{ not json');
    const run = await cli('score', MINI, DASK, '--jsonl', '--policy', policy);
    expect(run.code).toBe(1);
    expect(run.stdout).toBe('');
    expect(run.stderr).toContain(policy);
  });
});

describe('score FILE... (readable)', () => {
  it('prints each report under its file; a bad file is a stderr line and the rest are printed', async () => {
    const missing = join(dir, 'nope.traj');
    const run = await cli('score', MINI, missing, DASK);
    expect(run.code).toBe(1);
    expect(run.stdout).toContain(`== ${MINI}\n`);
    expect(run.stdout).toContain(`== ${DASK}\n`);
    expect(run.stdout).not.toContain(missing);
    expect(run.stderr.trimEnd().split('\n')).toEqual([expect.stringContaining(missing)]);
    expect(run.stdout).toContain((await cli('score', DASK)).stdout);
  });
});
