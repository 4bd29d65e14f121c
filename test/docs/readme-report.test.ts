/**
 * The README shows what `steplens report examples/runs --outcomes examples/runs/outcomes.csv` prints (its head and
 * the models table): a change to scoring or waste that moves those figures must move the README with it. The
 * wasted-steps column once read 79 where the command printed 14. The same for its calibrate example (the held-out check).
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { cli } from '../cli/run-cli.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

describe("the README's report example", () => {
  it('is what the command prints, line for line', async () => {
    const readme = await readFile(path.join(ROOT, 'README.md'), 'utf8');
    const start = readme.indexOf('```text\nsteplens report\n');
    expect(start, 'the README shows the report example').toBeGreaterThan(0);
    const shown = readme
      .slice(start + '```text\n'.length, readme.indexOf('```', start + 3))
      .trimEnd()
      .split('\n');
    const run = await cli('report', path.join(ROOT, 'examples/runs'), '--outcomes', path.join(ROOT, 'examples/runs/outcomes.csv'));
    expect(run.code).toBe(0);
    const printed = run.stdout.split('\n');
    // The README shows the head, then (after a blank line) the models table: each shown line is printed, in order.
    let at = 0;
    for (const line of shown.filter((l) => l !== '')) {
      const found = printed.indexOf(line, at);
      expect(found, `README line not printed (or out of order): ${line}`).toBeGreaterThanOrEqual(0);
      at = found + 1;
    }
    // The head is shown whole (audit23: a line the head gained, the pooled tier shares, was missing from it and the
    // in-order check above could not tell).
    const head = (lines: readonly string[]) => lines.slice(0, lines.indexOf(''));
    expect(head(shown)).toEqual(head(printed));
  });
});

describe("the README's calibrate example", () => {
  it('is the held-out check `steplens calibrate examples/runs --outcomes examples/runs/outcomes.csv` prints, line for line', async () => {
    const readme = await readFile(path.join(ROOT, 'README.md'), 'utf8');
    const start = readme.indexOf('```text\nheld-out check: ');
    expect(start, 'the README shows the calibrate example').toBeGreaterThan(0);
    const shown = readme.slice(start + '```text\n'.length, readme.indexOf('```', start + 3)).trimEnd();
    const run = await cli('calibrate', path.join(ROOT, 'examples/runs'), '--outcomes', path.join(ROOT, 'examples/runs/outcomes.csv'));
    expect(run.code).toBe(0);
    expect(run.stdout).toContain(`\n${shown}\n`);
  }, 60_000);
});

describe("the README's weight-fit figures", () => {
  it('are what `steplens calibrate --runs test/fixtures/early-stop-runs.jsonl.gz --weights` prints', async () => {
    const readme = await readFile(path.join(ROOT, 'README.md'), 'utf8');
    const shown = /fitted weights do worse held out than the paper's on the 132 runs with a reference \(AUROC (\S+) vs (\S+);[\s\S]*?the command prints `recommended: paper weights`/.exec(readme);
    expect(shown, 'the README states the weight fit').not.toBeNull();
    const [, fitRef, paperRef] = shown!;
    const run = await cli('calibrate', '--runs', path.join(ROOT, 'test/fixtures/early-stop-runs.jsonl.gz'), '--weights');
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(new RegExp(`\\nwith references +132 \\(112 / 20\\) +${fitRef} +\\S+ +${paperRef} `));
    // The README's passing / failing runs behind those AUROCs are the table's (it once gave the file's 192 / 810).
    expect(readme.replace(/\s+/g, ' ')).toContain('112 passing and 20 failing runs');
    // audit22: the README's within-source figures are the table's row of that source (fit held out, in-sample, paper).
    const within = /there\s+the fit reads (\S+ \[\S+ \S+\]) held out against the paper's (\S+ \[\S+ \S+\])/.exec(readme);
    expect(within, 'the README states the within-source figures').not.toBeNull();
    const esc = (x: string) => x.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    expect(run.stdout).toMatch(new RegExp(`\\nSWE-agent 0\\.x \\+ gpt-4 +78 \\(63 / 15\\) +${esc(within![1]!)} +\\S+ \\S+ \\S+ +${esc(within![2]!)} `));
    // Judged where the weights apply: no reference-free row, and the paper's weights stay.
    expect(run.stdout).not.toMatch(/\nreference-free +1002 /);
    expect(run.stdout).toContain(`recommended: paper weights (held-out AUROC of the fit with a reference ${fitRef} vs the paper's weights ${paperRef} on the 132 runs with one`);
  }, 60_000);
});
