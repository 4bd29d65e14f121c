/**
 * The bench scripts' command lines (bench/args.ts): `--help` prints the usage bench/README.md's table gives the
 * script and exits 0, an unknown flag is one line and exit 2. They printed parseArgs' stack trace for both (exit 1),
 * and the scripts reading positions by hand read `--help` as a corpus folder or a profile file. A bad number
 * (`--rate x`, `--rounds -1`, `--sessions 1.5`) is one line naming the flag and what it needs, exit 2, for every
 * numeric flag and position of every script: they threw a stack trace, or ran with NaN (after starting servers).
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { readArgs, readmeUsage, readNumber, type NumberKind } from '../../bench/args.js';
import { packageRoot } from '../../src/package-files.js';

const ROOT = packageRoot();
const README = readFileSync(path.join(ROOT, 'bench/README.md'), 'utf8');
/** Entries taking arguments that have no row of their own in the table (they give their usage themselves). */
const UNLISTED = ['heap-owners', 'report-separation', 'run-all', 'screenshots', 'alloc-top'];

/** Every bench of the table run as `node [flags] dist/bench/NAME.js`, and the unlisted ones. */
function entries(): string[] {
  const listed = [...README.matchAll(/^\| `([a-z0-9-]+)` \| `node (?:--[\w-]+ )*dist\/bench\/\1\.js/gm)].map((m) => m[1]!);
  return [...new Set([...listed, ...UNLISTED])].filter((n) => existsSync(path.join(ROOT, 'dist/bench', `${n}.js`)));
}

interface Ran {
  code: number;
  stdout: string;
  stderr: string;
}

async function run(name: string, ...args: string[]): Promise<Ran> {
  try {
    const { stdout, stderr } = await promisify(execFile)(process.execPath, [path.join(ROOT, 'dist/bench', `${name}.js`), ...args], { cwd: ROOT, encoding: 'utf8', timeout: 60_000 });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const e = error as { code?: number; stdout?: string; stderr?: string };
    return { code: typeof e.code === 'number' ? e.code : -1, stdout: e.stdout ?? '', stderr: e.stderr ?? '' };
  }
}

/**
 * `node dist/bench/NAME.js ARGS...` for each of `runs`, in `lanes` processes rather than one each: each lane runs its
 * share in one process (test/bench/run-entries.mjs), so each entry's modules load once per lane, not once per
 * command line. A real process per command line stays for the checks below that are about the process.
 */
async function runMany(runs: ReadonlyArray<readonly [name: string, ...args: string[]]>, lanes = 2): Promise<Ran[]> {
  const dir = mkdtempSync(path.join(tmpdir(), 'steplens-bench-args-'));
  try {
    const share = Math.ceil(runs.length / lanes);
    const parts = Array.from({ length: lanes }, (_, i) => runs.slice(i * share, (i + 1) * share)).filter((p) => p.length > 0);
    const results = await Promise.all(
      parts.map(async (part, i) => {
        const file = path.join(dir, `cases-${i}.json`);
        writeFileSync(file, JSON.stringify(part.map(([name, ...args]) => ({ file: path.join(ROOT, 'dist/bench', `${name}.js`), args }))));
        const { stdout } = await promisify(execFile)(process.execPath, [path.join(ROOT, 'test/bench/run-entries.mjs'), file], { cwd: ROOT, encoding: 'utf8', timeout: 300_000, maxBuffer: 64 << 20 });
        return JSON.parse(stdout) as Ran[];
      }),
    );
    return results.flat();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** `f` over `xs`, `n` at a time (the machine has 2 cores shared with the other test worker). */
async function pooled<T, R>(xs: readonly T[], n: number, f: (x: T) => Promise<R>): Promise<R[]> {
  const out: R[] = new Array<R>(xs.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < xs.length) {
      const i = next++;
      out[i] = await f(xs[i]!);
    }
  };
  await Promise.all(Array.from({ length: n }, worker));
  return out;
}

describe('readArgs', () => {
  const config = { options: { json: { type: 'string' }, only: { type: 'string' } } } as const;
  it('reads the flags, or asks for the usage on --help / -h before a --', () => {
    const ok = readArgs(config, ['--json', 'f.json']);
    expect(ok.kind === 'ok' && ok.parsed.values.json).toBe('f.json');
    expect(readArgs(config, ['--only', 'x', '--help']).kind).toBe('help');
    expect(readArgs(config, ['-h']).kind).toBe('help');
    expect(readArgs({ ...config, allowPositionals: true }, ['--', '--help']).kind).toBe('ok');
  });
  it('reads a negative number as the value of the flag before it (parseArgs called `--rounds -1` ambiguous)', () => {
    const read = readArgs({ ...config, allowPositionals: true }, ['--json', '-1', '--only', '-.5', 'x']);
    expect(read.kind === 'ok' && [read.parsed.values.json, read.parsed.values.only, read.parsed.positionals]).toEqual(['-1', '-.5', ['x']]);
    expect(readArgs(config, ['--json', '-x'])).toMatchObject({ kind: 'error' });
  });
  it('names what is wrong in one sentence: an unknown flag, a flag without its value, an argument not taken', () => {
    expect(readArgs(config, ['--bogus'])).toEqual({ kind: 'error', message: "Unknown option '--bogus'" });
    expect(readArgs(config, ['--json'])).toEqual({ kind: 'error', message: "Option '--json <value>' argument missing" });
    expect(readArgs(config, ['x'])).toEqual({ kind: 'error', message: "Unexpected argument 'x'" });
  });
});

describe('readmeUsage', () => {
  it("reads a script's command from bench/README.md's table, as plain text", () => {
    expect(readmeUsage(README, 'ws-load')).toMatch(/^node dist\/bench\/ws-load\.js \[--shapes lifecycle,pipelined\] .*\[--rate half-paced\|half\|N,\.\.\.\] /);
    expect(readmeUsage(README, 'alloc-top')).toMatch(/^ALLOC_OUT=F node --import .*, then node dist\/bench\/alloc-top\.js F STEPS \[TOP=30\]$/);
    expect(readmeUsage(README, 'no-such-bench')).toBeUndefined();
  });
});

describe('every bench entry that takes arguments', () => {
  const names = entries();
  it('finds the table rows and the unlisted entries', () => {
    expect(names).toEqual(expect.arrayContaining(['ws-load', 'session-cost', 'memory', 'cpu-top', 'label-per-step', 'structural-add', 'rank', 'drills', ...UNLISTED]));
  });

  it('prints its usage on --help (the table row where it has one) and exits 0', { timeout: 240_000 }, async () => {
    const ran = await runMany(names.map((n) => [n, '--help']));
    const wrong = names.filter((n, i) => {
      const r = ran[i]!;
      const usage = readmeUsage(README, n);
      return r.code !== 0 || r.stderr !== '' || (usage !== undefined ? r.stdout !== `usage: ${usage}\n` : !/^usage: .*dist\/bench\//.test(r.stdout));
    });
    expect(wrong).toEqual([]);
  });

  it('answers in one process (run-entries, which the checks of every entry use) as in a process of its own', { timeout: 120_000 }, async () => {
    const some = [['ws-load', '--help'], ['structural-add', '10', '1.5'], ['cpu-top', '--no-such-flag'], ['report-separation']] as const;
    const [alone, together] = await Promise.all([pooled(some, 2, ([n, ...args]) => run(n, ...args)), runMany(some, 1)]);
    expect(together).toEqual(alone);
    expect(alone.map((r) => r.code)).toEqual([0, 2, 2, 2]);
  });

  it('refuses an unknown flag in one line naming it, exit 2', { timeout: 120_000 }, async () => {
    // One of each kind: parseArgs flags, positions read by hand, both, a module that is also imported (cpu-top).
    const some = ['ws-load', 'label-per-step', 'report-separation', 'cpu-top', 'alloc-top'];
    for (const [i, r] of (await pooled(some, 3, (n) => run(n, '--no-such-flag'))).entries()) {
      expect(r.code, some[i]).toBe(2);
      expect(r.stderr).toBe(`${some[i]}: Unknown option '--no-such-flag' (node dist/bench/${some[i]}.js --help prints the usage)\n`);
    }
  });
});

describe('readNumber', () => {
  it('reads a number of each kind, and refuses what is not one ("" and "x" were 0 and NaN, -1 and 1.5 went through)', () => {
    const cases: Array<[string, NumberKind, number | undefined]> = [
      ['3', 'positive integer', 3],
      ['1.5', 'positive integer', undefined],
      ['0', 'positive integer', undefined],
      ['-1', 'non-negative integer', undefined],
      ['0', 'non-negative integer', 0],
      ['1e3', 'positive integer', 1000],
      ['-2', 'integer', -2],
      ['0.25', 'positive number', 0.25],
      ['-1', 'non-negative number', undefined],
      ['1.5', 'rate between 0 and 1', undefined],
      ['0.02', 'rate between 0 and 1', 0.02],
      ['x', 'number', undefined],
      ['', 'number', undefined],
      [' ', 'number', undefined],
      ['Infinity', 'positive number', undefined],
      ['9007199254740993', 'positive integer', undefined],
    ];
    for (const [text, kind, want] of cases) expect(readNumber(text, kind), `${text} as ${kind}`).toBe(want);
  });
});

/** The entries' sources (bench/NAME.ts, bench/early-stop/signals.ts, ...) by entry name. */
function sources(): Map<string, string> {
  const out = new Map<string, string>();
  for (const f of readdirSync(path.join(ROOT, 'bench'), { recursive: true }) as string[]) {
    if (f.endsWith('.ts')) out.set(f.replace(/\.ts$/, ''), readFileSync(path.join(ROOT, 'bench', f), 'utf8'));
  }
  return out;
}

/** A value each kind refuses (and a reader that let it through would run with). */
const BAD: Record<NumberKind, string> = {
  number: 'x',
  'positive number': '-1',
  'non-negative number': '-1',
  'rate between 0 and 1': '2',
  integer: '1.5',
  'positive integer': '1.5',
  'non-negative integer': '-1',
};

/** Where a script's numbers sit on its command line: its positions' order, and what it needs before them. */
const POSITIONS: Record<string, string[]> = {
  'structural-add': ['CANDIDATE_STEPS', 'ROUNDS'],
  'shadow-cost': ['CORPUS_DIR', 'PASSES'],
  'label-per-step': ['CORPUS_DIR', 'RUNS'],
  'label-pairs': ['CORPUS_DIR', 'PAIRS'],
  'push-per-step': ['CORPUS_DIR', 'RUNS'],
  'alloc-top': ['FILE', 'STEPS', 'TOP'],
  'cpu-top': ['FILE', 'TOP'],
};
/** The positions a script needs before it reads its flags (its checks of them come first). */
const REQUIRED: Record<string, string[]> = {
  evidence: ['none'],
  'forecast-features': ['none'],
  'forecast-text': ['none'],
  'forecast-norm': ['none'],
  'forecast-ecdf': ['none'],
  'forecast-end': ['none'],
  'calibration-retrain': ['none'],
  'calibration-online': ['none'],
  'report-separation': ['none.json'],
  'heap-owners': ['none.heapsnapshot'],
  'early-stop/signals': ['none'],
  rank: ['none', 'none'],
};

interface NumberCase {
  entry: string;
  /** `--rounds`, or a position's name. */
  name: string;
  kind: NumberKind;
  args: string[];
}

/** Every numeric flag and position the bench entries read, from their sources (each read through bench/args.ts). */
function numberCases(): NumberCase[] {
  const src = sources();
  const closedLoop = [...src.get('split-drivers')!.matchAll(/numberFlag\(args, '([\w-]+)', '([a-z0-9 -]+)'/g)].map((m) => [m[1]!, m[2]!] as const);
  const out: NumberCase[] = [];
  for (const [entry, text] of src) {
    if (entry === 'split-drivers' || entry === 'args') continue;
    const flags = [...text.matchAll(/number(?:List)?Flag\(\w+, '([\w-]+)', '([a-z0-9 -]+)'/g)].map((m) => [m[1]!, m[2]!] as const);
    if (text.includes('closedLoopNumbers(args)')) flags.push(...closedLoop);
    for (const [flag, kind] of flags) out.push({ entry, name: `--${flag}`, kind: kind as NumberKind, args: [...(REQUIRED[entry] ?? []), `--${flag}`, BAD[kind as NumberKind]] });
    for (const m of text.matchAll(/numberArg\(\w+(?:\[\d\])?, '([A-Z_]+)', '([a-z0-9 -]+)'/g)) {
      const order = POSITIONS[entry] ?? [];
      const at = order.indexOf(m[1]!);
      const kind = m[2]! as NumberKind;
      // The positions before it hold what the script takes there (a number that passes: 10), the position itself the bad value.
      const args = order.slice(0, at + 1).map((p, i) => (i === at ? BAD[kind] : p === 'FILE' ? 'none.profile' : p === 'CORPUS_DIR' ? 'none' : '10'));
      out.push({ entry, name: m[1]!, kind, args: at < 0 ? [] : args });
    }
  }
  return out;
}

describe('every numeric flag and position of every bench entry', () => {
  const cases = numberCases();

  it('is read through bench/args.ts (no Number() of a flag or a position left, which read "x" as NaN and "" as 0)', () => {
    const bare = [...sources()].flatMap(([entry, text]) =>
      text
        .split('\n')
        .filter((line) => /Number\((?:args|values|opts|flags|positionals|top|stepsArg|topArg)\b|\.map\(Number\)/.test(line) && /args|values|opts|flags|positionals/.test(line))
        .map((line) => `${entry}: ${line.trim()}`),
    );
    expect(bare).toEqual([]);
    // The positions are found where the table says they are.
    expect(cases.filter((c) => c.args.length === 0).map((c) => `${c.entry} ${c.name}`)).toEqual([]);
    expect(cases.length).toBeGreaterThan(80);
    expect(cases.map((c) => `${c.entry} ${c.name}`)).toEqual(
      expect.arrayContaining(['ws-load --rounds', 'ws-load --sessions', 'replicas --pairs', 'scale-out --round-ms', 'structural-add ROUNDS', 'alloc-top TOP']),
    );
  });

  it('refuses a bad value in one line naming it and what it needs, exit 2, before any work', { timeout: 600_000 }, async () => {
    const ran = await runMany(cases.map((c) => [c.entry, ...c.args]));
    const wrong = cases.flatMap((c, i) => {
      const r = ran[i]!;
      const script = path.basename(c.entry);
      const bad = c.args.at(-1)!;
      const line = `${script}: ${c.name} needs ${/^[aeiou]/.test(c.kind) ? 'an' : 'a'} ${c.kind}, got '${bad}' (node dist/bench/${script}.js --help prints the usage)\n`;
      const list = new RegExp(`^${script}: ${c.name} needs ${c.kind}s separated by commas, got '${bad.replace(/[.]/g, '\\.')}' in`);
      return r.code === 2 && r.stdout === '' && (r.stderr === line || list.test(r.stderr)) ? [] : [`${c.entry} ${c.args.join(' ')}: exit ${r.code}, ${r.stderr.split('\n').slice(0, 3).join(' | ')}`];
    });
    expect(wrong).toEqual([]);
  });

  it("ws-load's --rate: an item neither half-paced, half nor a positive number of steps/s is refused the same way", async () => {
    const rates = ['x', '500,-1', 'half,0', 'half-paced,halfx'];
    for (const [i, r] of (
      await runMany(
        rates.map((rate) => ['ws-load', '--rate', rate]),
        1,
      )
    ).entries()) {
      const rate = rates[i]!;
      expect(r.code, rate).toBe(2);
      expect(r.stderr).toMatch(
        new RegExp(
          `^ws-load: --rate needs half-paced, half or positive numbers of steps/s separated by commas, got '[^']+' in '${rate}' \\(node dist/bench/ws-load\\.js --help prints the usage\\)\n$`,
        ),
      );
    }
  }, 60_000);
});
