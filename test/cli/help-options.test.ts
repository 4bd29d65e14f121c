/**
 * Each command's `--help` and its option parser agree: every flag of the usage synopsis is one the parser takes, and
 * every flag the parser takes (among those any command's help names) is named somewhere in that command's help.
 * `replay` took `--lenient` (bad lines skipped, exit 0) without its help saying so. A flag of a synopsis whose meaning is
 * not plain from it is also said below it: `serve`'s `--resume-window`, `--idle-timeout`, `--learn`, `--log-level`, ...,
 * `score`'s and `rank`'s `--prior-dir` and `replay`'s `--session` were named in the synopsis only.
 *
 * The parser is asked by running the command with `--flag=v` and no FILE or PATH: parseArgs refuses a flag it does not
 * take ("unknown option") before anything runs, and a flag it takes ends in another one-line error (a missing FILE,
 * a boolean given a value). `serve` gets a bad `--port` too, so that nothing listens.
 */
import { describe, expect, it } from 'vitest';
import { parseCalibrateArgs } from '../../src/cli/calibrate-args.js';
import { cli } from './run-cli.js';

const COMMANDS = ['label', 'convert', 'build-pta', 'show-pta', 'score', 'rank', 'report', 'calibrate', 'train', 'serve', 'replay'];

const flagsIn = (text: string): string[] => [...new Set([...text.matchAll(/(?<![\w-])--([a-z][a-z-]*[a-z])/g)].map((m) => m[1]!))];

/** The synopsis: the `usage:` line and the lines under it that go on with `[--flag ...]`. */
function synopsis(help: string): string {
  const lines = help.split('\n');
  const out = [lines[0]!];
  for (const line of lines.slice(1)) {
    if (!line.trimStart().startsWith('[')) break;
    out.push(line);
  }
  return out.join('\n');
}

async function takes(command: string, flag: string): Promise<boolean> {
  const run = await cli(command, `--${flag}=v`, ...(command === 'serve' && flag !== 'port' ? ['--port', 'x'] : []));
  expect(run.code, `${command} --${flag}=v`).not.toBe(0);
  return !run.stderr.toLowerCase().includes(`unknown option '--${flag}'`);
}

describe('each command’s --help names the options its parser takes', () => {
  it('every flag of a synopsis is taken, and every flag taken is in the help', { timeout: 120_000 }, async () => {
    const helps = new Map<string, string>();
    for (const c of COMMANDS) {
      const run = await cli(c, '--help');
      expect(run.code, c).toBe(0);
      helps.set(c, run.stdout);
    }
    const everyFlag = new Set([...helps.values()].flatMap(flagsIn));
    const listedNotTaken: string[] = [];
    const takenNotListed: string[] = [];
    for (const [c, help] of helps) {
      for (const f of flagsIn(synopsis(help))) if (!(await takes(c, f))) listedNotTaken.push(`${c} --${f}`);
      const named = new Set(flagsIn(help));
      for (const f of everyFlag) if (!named.has(f) && (await takes(c, f))) takenNotListed.push(`${c} --${f}`);
    }
    expect(listedNotTaken).toEqual([]);
    expect(takenNotListed).toEqual([]);
    // The probe tells the two apart: a flag no command takes is refused, one that is taken is not.
    expect(await takes('label', 'no-such-flag')).toBe(false);
    expect(await takes('label', 'json')).toBe(true);
  });
});

/** Flags a synopsis says enough about: the format's values (README), --json and --lenient (README, "Command line"), the outcome, the output file. */
const PLAIN = new Set(['format', 'json', 'lenient', 'passed', 'failed', 'out']);

describe('each command’s --help says what its flags do', () => {
  it('names every flag of the synopsis below it too, but for the plain ones', { timeout: 60_000 }, async () => {
    const unsaid: string[] = [];
    for (const c of COMMANDS) {
      const help = (await cli(c, '--help')).stdout;
      const head = synopsis(help);
      const said = new Set(flagsIn(help.slice(head.length)));
      for (const f of flagsIn(head)) if (!said.has(f) && !PLAIN.has(f)) unsaid.push(`${c} --${f}`);
    }
    expect(unsaid).toEqual([]);
  });
});

describe('calibrate --help states the defaults its parser uses', () => {
  it('--seed, --holdout, --splits, --source-max (calibrate said "--seed N (default half": the split\'s default)', async () => {
    const help = (await cli('calibrate', '--help')).stdout.replace(/\s+/g, ' ');
    const parsed = parseCalibrateArgs(['x']);
    expect(help).toContain(`--seed N (default ${parsed.seed};`);
    expect(help).toContain(`--holdout R the held-out share, default ${parsed.holdout})`);
    expect(help).toContain(`--splits K (default ${parsed.splits})`);
    expect(parsed.sourceMax).toBeUndefined();
    expect(help).toContain(`none by default, ${parseCalibrateArgs(['x', '--portable']).sourceMax} with --portable`);
    expect(help).toContain(`--split half|source|none ${parsed.split} (the default)`);
  });
});
