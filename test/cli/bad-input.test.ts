import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli } from './run-cli.js';

const dir = mkdtempSync(join(tmpdir(), 'steplens-cli-'));
const write = (name: string, text: string) => {
  const file = join(dir, name);
  writeFileSync(file, text);
  return file;
};

/** One line on stderr, naming what is wrong, no stack trace, exit 1. */
function expectOneLineError(run: { code: number; stderr: string; stdout: string }, ...mentions: string[]) {
  expect(run.code).toBe(1);
  expect(run.stdout).toBe('');
  const lines = run.stderr.trimEnd().split('\n');
  expect(lines).toHaveLength(1);
  expect(run.stderr).not.toMatch(/\n\s+at /);
  for (const m of mentions) expect(run.stderr).toContain(m);
}

describe('CLI bad input', () => {
  it('an unreadable file names the file', async () => {
    const missing = join(dir, 'nope.jsonl');
    expectOneLineError(await cli('label', missing), missing, 'no such file');
    expectOneLineError(await cli('score', missing), missing);
  });

  it('a directory is not a trajectory', async () => {
    expectOneLineError(await cli('label', dir), dir);
  });

  it('no command, an unknown command and an unknown flag', async () => {
    expectOneLineError(await cli(), 'no command given', 'score', '--help');
    expectOneLineError(await cli('frobnicate'), 'frobnicate');
    expectOneLineError(await cli('label', '--bogus', 'x'), 'bogus');
  });

  it('a mistyped flag is named with the flag it is near, without Node advice on positionals', async () => {
    const run = await cli('score', 'x.traj', '--passd');
    expectOneLineError(run);
    expect(run.stderr).toBe("steplens score: unknown option '--passd' (did you mean --passed?)\n");
    expect((await cli('report', 'runs', '--outcome', 'o.csv')).stderr).toContain("unknown option '--outcome' (did you mean --outcomes?)");
    expect((await cli('serve', '--prot', '9000')).stderr).toContain("unknown option '--prot' (did you mean --port?)");
    expect((await cli('label', '--bogus', 'x')).stderr).toBe("steplens label: unknown option '--bogus'\n");
  });

  it('a wrong --format value lists the accepted ones', async () => {
    const file = write('ok.jsonl', '');
    expectOneLineError(await cli('label', file, '--format', 'xml'), '--format', 'swe-agent');
  });

  it('build-pta without enough references says how many it needs', async () => {
    const file = write('one.jsonl', '');
    expectOneLineError(await cli('build-pta', '--task', 't', '--out', join(dir, 'p.json'), file), 'at least 2');
  });

  it('a PTA file that is not a PTA names the file', async () => {
    const pta = write('pta.json', '{"schema": 99}');
    const traj = write('t.jsonl', '{"t":0,"tool":"bash","action":{"kind":"shell","command":"ls"}}\n');
    expectOneLineError(await cli('score', traj, '--pta', pta), pta);
  });

  it('a steplens line that is not JSON is reported with file and line; the rest is kept', async () => {
    const file = write(
      'mixed.jsonl',
      ['{"t":0,"tool":"bash","action":{"kind":"shell","command":"ls"}}', 'this is not json', '{"t":2,"tool":"bash","action":{"kind":"shell","command":"grep -rn foo ."}}'].join('\n'),
    );
    const run = await cli('label', file, '--format', 'steplens', '--json');
    expect(run.code).toBe(1);
    const doc = JSON.parse(run.stdout) as { steps: unknown[]; diagnostics: Array<{ at: string; message: string }> };
    expect(doc.steps).toHaveLength(2);
    expect(doc.diagnostics).toHaveLength(1);
    expect(doc.diagnostics[0]!.at).toContain('2');
    expect(run.stderr.trim().split('\n')).toEqual([expect.stringMatching(new RegExp(`^${file}: line 2: `))]);
    expect(run.stderr).not.toMatch(/\n\s+at /);
    const lenient = await cli('label', file, '--format', 'steplens', '--json', '--lenient');
    expect(lenient.code).toBe(0);
    expect(lenient.stdout).toBe(run.stdout);
  });

  it('a step missing required fields becomes a diagnostic naming the line', async () => {
    const file = write('missing.jsonl', ['{"t":0,"tool":"bash"}', '{"t":1,"tool":"bash","action":{"kind":"shell","command":"ls"}}'].join('\n'));
    const run = await cli('label', file, '--format', 'steplens');
    expect(run.code).toBe(1);
    expect(run.stdout).toContain('1 steps');
    expect(run.stderr).toContain(file);
    expect(run.stderr).toMatch(/line 1/);
    expect(run.stderr).toContain('action');
  });
});
