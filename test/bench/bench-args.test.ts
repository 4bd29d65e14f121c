/**
 * The bench scripts' command lines (bench/args.ts): `--help` prints the usage bench/README.md's table gives the
 * script and exits 0, an unknown flag is one line and exit 2. They printed parseArgs' stack trace for both (exit 1),
 * and the scripts reading positions by hand read `--help` as a corpus folder or a profile file.
 */
import { execFile } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { readArgs, readmeUsage } from '../../bench/args.js';
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

async function run(name: string, arg: string): Promise<Ran> {
  try {
    const { stdout, stderr } = await promisify(execFile)(process.execPath, [path.join(ROOT, 'dist/bench', `${name}.js`), arg], { cwd: ROOT, encoding: 'utf8', timeout: 60_000 });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const e = error as { code?: number; stdout?: string; stderr?: string };
    return { code: typeof e.code === 'number' ? e.code : -1, stdout: e.stdout ?? '', stderr: e.stderr ?? '' };
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
  it('names what is wrong in one sentence: an unknown flag, a flag without its value, an argument not taken', () => {
    expect(readArgs(config, ['--bogus'])).toEqual({ kind: 'error', message: "Unknown option '--bogus'" });
    expect(readArgs(config, ['--json'])).toEqual({ kind: 'error', message: "Option '--json <value>' argument missing" });
    expect(readArgs(config, ['x'])).toEqual({ kind: 'error', message: "Unexpected argument 'x'" });
  });
});

describe('readmeUsage', () => {
  it("reads a script's command from bench/README.md's table, as plain text", () => {
    expect(readmeUsage(README, 'ws-load')).toMatch(/^node dist\/bench\/ws-load\.js \[--shapes lifecycle,pipelined\] .*\[--rate half\|N,\.\.\.\] /);
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
    const ran = await pooled(names, 3, (n) => run(n, '--help'));
    const wrong = names.filter((n, i) => {
      const r = ran[i]!;
      const usage = readmeUsage(README, n);
      return r.code !== 0 || r.stderr !== '' || (usage !== undefined ? r.stdout !== `usage: ${usage}\n` : !/^usage: .*dist\/bench\//.test(r.stdout));
    });
    expect(wrong).toEqual([]);
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
