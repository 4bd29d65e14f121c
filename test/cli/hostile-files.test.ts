/**
 * Hostile files through the CLI (issue 25, item 8): gzip bombs and oversized files are one error naming
 * the file and the input limit; folders read only regular files (and symlinks to one), naming the rest;
 * text from logs never reaches the terminal or a written document with its control characters; no CSV
 * cell starts a formula. The same files, larger, are the hostile-files drill (bench/drills/hostile-files.ts).
 */
import { execFileSync, spawn } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ESCAPES, FORMULAS, filesUnder, hostileLog, outputProblems, writeGzipBomb } from '../../bench/drills/hostile-files.js';
import { runCli } from '../../src/cli/main.js';
import { csvCell } from '../../src/report/render/format-table.js';
import { configureInputLimit, DEFAULT_MAX_INPUT_BYTES } from '../../src/text-files.js';
import { startApp, type Running } from '../server/helpers.js';

const EXAMPLES = join(import.meta.dirname, '../../examples/runs');
const MINI = join(EXAMPLES, 'mini-swe-agent');
const dir = mkdtempSync(join(tmpdir(), 'steplens-hostile-'));
const LIMIT = { STEPLENS_MAX_INPUT_BYTES: '4M' };
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function run(argv: string[], env: Record<string, string> = {}) {
  let stdout = '';
  let stderr = '';
  const code = await runCli(argv, { stdout: (s) => void (stdout += s), stderr: (s) => void (stderr += s), stderrIsTTY: false, cwd: dir, env });
  return { code, stdout, stderr };
}

/** Exit 1, nothing on stdout, one stderr line holding every mention. */
function oneLineError(r: { code: number; stdout: string; stderr: string }, ...mentions: string[]) {
  expect(r.code).toBe(1);
  expect(r.stdout).toBe('');
  expect(r.stderr.trimEnd().split('\n')).toHaveLength(1);
  for (const m of mentions) expect(r.stderr).toContain(m);
}

const miniRun = (run: string) => join(MINI, run, readdirSync(join(MINI, run))[0]!);

describe('the input limit', () => {
  const bomb = join(dir, 'bomb.traj.json.gz');
  const plain = join(dir, 'big.jsonl');
  beforeAll(() => {
    writeGzipBomb(bomb, 32);
    writeFileSync(plain, `{"t":0,"tool":"bash","action":{"kind":"shell","command":"${'a'.repeat(5 * 1024 * 1024)}"}}\n`);
  });

  it('a gzip bomb is one error naming the file and the limit, for every command that reads one file', async () => {
    for (const verb of ['label', 'score', 'convert']) oneLineError(await run([verb, bomb], LIMIT), bomb, 'expands to more than the input limit of 4 MiB', 'STEPLENS_MAX_INPUT_BYTES');
  });

  it('a plain file over the limit is refused the same way, before it is read', async () => {
    oneLineError(await run(['label', plain], LIMIT), plain, 'over the input limit of 4 MiB');
  });

  it('calibrate --runs reads its scored-runs file within the limit', async () => {
    const runs = join(dir, 'runs.jsonl.gz');
    writeGzipBomb(runs, 32);
    oneLineError(await run(['calibrate', '--runs', runs], LIMIT), `cannot read --runs ${runs}`, 'input limit of 4 MiB');
  });

  it('a bomb in a folder is skipped with its reason and every other run is read (report, calibrate)', async () => {
    const folder = join(dir, 'folder-bomb');
    cpSync(MINI, folder, { recursive: true });
    writeGzipBomb(join(folder, 'bomb.traj.json.gz'), 32);
    const r = await run(['report', '--json', folder], LIMIT);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`skipped ${join(folder, 'bomb.traj.json.gz')}: gzip data expands to more than the input limit of 4 MiB`);
    expect((JSON.parse(r.stdout) as { inputs: { trajectories: number } }).inputs.trajectories).toBe(5);
    expect((await run(['report', '--json', '--lenient', folder], LIMIT)).code).toBe(0);
    const c = await run(['calibrate', '--outcomes', join(EXAMPLES, 'outcomes.csv'), '--json', '--lenient', folder], LIMIT);
    expect(c.stderr).toContain('bomb.traj.json.gz: gzip data expands');
    expect(c.code).toBe(0);
  });

  it('STEPLENS_MAX_INPUT_BYTES takes bytes or K/M/G, up to the longest string V8 holds; a bad value is a usage error', async () => {
    expect(configureInputLimit({ STEPLENS_MAX_INPUT_BYTES: '2048' })).toEqual({ ok: true, value: 2048 });
    expect(configureInputLimit({ STEPLENS_MAX_INPUT_BYTES: '64M' })).toEqual({ ok: true, value: 64 * 1024 * 1024 });
    expect(configureInputLimit({ STEPLENS_MAX_INPUT_BYTES: '1GiB' }).ok).toBe(false);
    expect(configureInputLimit({})).toEqual({ ok: true, value: DEFAULT_MAX_INPUT_BYTES });
    oneLineError(await run(['label', bomb], { STEPLENS_MAX_INPUT_BYTES: 'lots' }), 'STEPLENS_MAX_INPUT_BYTES must be', "'lots'");
    // Raised, the same bomb is read: 32 MiB of JSON, refused only for being no log.
    oneLineError(await run(['label', bomb], { STEPLENS_MAX_INPUT_BYTES: '64M' }), 'could not detect the log format');
  });
});

describe('folders read only regular files and symlinks to regular files', () => {
  it('a symlink to /dev/zero, a FIFO, a symlink to a folder and a dangling symlink are skipped with a reason; the rest is read', async () => {
    const folder = join(dir, 'specials');
    mkdirSync(folder);
    cpSync(miniRun('deepseek_chat_dev'), join(folder, 'real.traj.json'));
    symlinkSync(miniRun('deepseek_lite_dev_noparallel'), join(folder, 'linked.traj.json'));
    symlinkSync('/dev/zero', join(folder, 'x.json'));
    execFileSync('mkfifo', [join(folder, 'fifo.json')]);
    symlinkSync(MINI, join(folder, 'folder.json'));
    symlinkSync(join(folder, 'nowhere'), join(folder, 'dangling.json'));
    const r = await run(['report', '--json', folder]);
    expect(r.code).toBe(1);
    expect((JSON.parse(r.stdout) as { inputs: { trajectories: number } }).inputs.trajectories).toBe(2);
    expect(r.stderr.trimEnd().split('\n').sort()).toEqual([
      `skipped ${join(folder, 'dangling.json')}: no such file`,
      `skipped ${join(folder, 'fifo.json')}: not a regular file (a FIFO)`,
      `skipped ${join(folder, 'folder.json')}: is a directory`,
      `skipped ${join(folder, 'x.json')}: not a regular file (a character device)`,
    ]);
  }, 60_000);

  it('reference folders (report --references, score --prior-dir) never open a FIFO or read a device', async () => {
    const refs = join(dir, 'refs');
    mkdirSync(refs);
    cpSync(join(EXAMPLES, '../../data/example/pylint-dev__astroid-1196.json'), join(refs, 'pylint-dev__astroid-1196.json'));
    execFileSync('mkfifo', [join(refs, 'django__django-13401.json')]);
    symlinkSync('/dev/zero', join(refs, 'dask__dask-8685.json'));
    const report = await run(['report', '--json', '--references', refs, join(EXAMPLES, 'mini-swe-agent/deepseek_bench1')]);
    oneLineError(report, `stored PTA ${join(refs, 'django__django-13401.json')} is unusable: not a regular file`);
    const score = await run(['score', '--prior-dir', refs, miniRun('deepseek_bench1')]);
    oneLineError(score, `cannot read ${join(refs, 'dask__dask-8685.json')}: not a regular file (a character device)`);
  }, 60_000);

  it('a FIFO named on the command line of a one-file command is read to its end (process substitution)', async () => {
    const fifo = join(dir, 'named.fifo');
    execFileSync('mkfifo', [fifo]);
    // The writer is another process: the CLI reads synchronously, so a writer in this thread would never run.
    const writer = spawn('sh', ['-c', 'cat "$0" > "$1"', miniRun('deepseek_chat_dev'), fifo], { stdio: 'ignore' });
    const done = new Promise((resolve) => writer.on('close', resolve));
    const r = await run(['label', fifo]);
    await done;
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('mini-swe-agent pylint-dev__astroid-1196: 62 steps');
  });
});

describe('control characters from logs are escaped in every human-readable output', () => {
  const hostile = join(dir, 'escapes');
  let outcomes: string;
  let srv: Running;
  const runs: string[] = [];
  beforeAll(async () => {
    const rows = ['task,outcome,run'];
    ['deepseek_chat_dev', 'deepseek_chat_dev_rerun', 'deepseek_lite_dev_noparallel'].forEach((name, i) => {
      const runDir = join(hostile, `${FORMULAS[i]!.replace(/\//g, '_')}\x1b[31m${i}`);
      mkdirSync(runDir, { recursive: true });
      const file = join(runDir, 'run.traj.json');
      writeFileSync(file, hostileLog(readFileSync(miniRun(name), 'utf8'), ESCAPES, `task${ESCAPES}`, `${FORMULAS[3]}${ESCAPES}`));
      runs.push(file);
      rows.push(`"task${ESCAPES}",${i < 2 ? 'pass' : 'fail'},"${runDir.split('/').pop()!.replace(/"/g, '""')}"`);
    });
    outcomes = join(dir, 'hostile-outcomes.csv');
    writeFileSync(outcomes, `${rows.join('\n')}\n`);
    srv = await startApp({ dataDir: join(dir, 'server-data'), tokens: ['tok'] });
  });
  afterAll(async () => srv.app.close());

  const clean = (name: string, r: { stdout: string; stderr: string }, files: Array<{ name: string; text: string }> = []) =>
    expect(outputProblems(name, [{ name: 'stdout', text: r.stdout }, { name: 'stderr', text: r.stderr }, ...files])).toEqual([]);

  it('label, score, convert and replay', async () => {
    const label = await run(['label', runs[0]!]);
    expect(label.stdout).toContain('\\u001b]0;pwned\\u0007');
    clean('label', label);
    clean('score', await run(['score', runs[0]!]));
    clean('convert', await run(['convert', runs[0]!]));
    const replay = await run(['replay', runs[0]!, '--url', srv.url, '--token', 'tok']);
    expect(replay.stdout + replay.stderr).toContain('\\u001b');
    clean('replay', replay);
  });

  it('build-pta, show-pta, and the warning of score that quotes the log', async () => {
    const pta = join(dir, 'hostile-pta.json');
    clean('build-pta', await run(['build-pta', '--task', `task${ESCAPES}`, '--out', pta, runs[0]!, runs[1]!]));
    const show = await run(['show-pta', pta]);
    expect(show.code).toBe(0);
    clean('show-pta', show);
    const other = join(dir, 'other-pta.json');
    await run(['build-pta', '--task', 'pylint-dev__astroid-1196', '--out', other, miniRun('deepseek_chat_dev'), miniRun('deepseek_chat_dev_rerun')]);
    const warned = await run(['score', runs[2]!, '--pta', other]);
    expect(warned.stderr).toContain('is the reference of task');
    clean('score --pta', warned);
  });

  it('report (terminal, Markdown, HTML, JSON, CSV, SVG), calibrate (terminal, CSV, SVG, JSON) and train', async () => {
    const out = join(dir, 'report-out');
    const report = await run(['report', '--out', out, hostile]);
    expect(report.code).toBe(0);
    clean('report', report, filesUnder(out));
    expect(readFileSync(join(out, 'report.md'), 'utf8')).toContain('\\u001b');
    const cal = join(dir, 'calibrate-out');
    const calibrate = await run(['calibrate', '--outcomes', outcomes, '--split', 'none', '--out-dir', cal, hostile]);
    expect(calibrate.code).toBe(0);
    clean('calibrate', calibrate, filesUnder(cal));
    const train = await run(['train', '--outcomes', outcomes, '--out', join(dir, 'forecast.json'), '--folds', '2', hostile]);
    expect(train.stdout).toContain('\\u001b');
    clean('train', train);
  }, 120_000);
});

describe('CSV cells', () => {
  it('a text cell that a spreadsheet would run as a formula gets a leading quote (OWASP); numbers stay numbers', () => {
    for (const f of [...FORMULAS, '\t=1', '\r=1', '@x']) expect(csvCell(f).replace(/^"/, '').startsWith("'")).toBe(true);
    expect(csvCell('=HYPERLINK("http://x","y")')).toBe('"\'=HYPERLINK(""http://x"",""y"")"');
    expect(csvCell(-0.5)).toBe('-0.5');
    expect(csvCell('django__django-13401')).toBe('django__django-13401');
    expect(csvCell(null)).toBe('');
  });
});
