/**
 * A file a corpus command's own flags name (`--manifest`, `--outcomes`, an `--out` written by an earlier run, ...) and
 * that lies under a PATH folder is passed over by the walk, silently: `report --manifest runs/manifest.jsonl runs` is
 * the natural command and must not name its own manifest as a skipped log. A broken log beside it is still named and
 * still makes the exit code 1 unless --lenient.
 */
import { cpSync, mkdtempSync, readFileSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CorpusReport } from '../../src/report/types.js';
import { CORPUS_DIR } from '../fixtures/corpus.js';
import { cli } from './run-cli.js';

/** 15 real SWE-agent 0.x runs (5 models, 3 Java tasks) with their SWE-bench results.json files. */
const JAVA = path.join(CORPUS_DIR, 'multi-swe-bench__experiments');

const tmp = mkdtempSync(path.join(os.tmpdir(), 'steplens-walk-flags-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

/** A fresh copy of the runs with a manifest and an outcome table written beside them (the shape of ../shared/calibration). */
function runsFolder(name: string): { dir: string; manifest: string; outcomes: string; logs: string[] } {
  const dir = path.join(tmp, name);
  cpSync(JAVA, dir, { recursive: true });
  const logs = (readdirSync(dir, { recursive: true }) as string[]).filter((f) => f.endsWith('.traj')).sort();
  const manifest = path.join(dir, 'manifest.jsonl');
  // The model from the run folder's name (SWE-agent 0.x logs name none), as the calibration set's manifest gives it.
  writeFileSync(manifest, logs.map((f) => `${JSON.stringify({ file: f, model: f.split(path.sep)[3]!.replace(/^\d+_SWE-agent_/, '') })}\n`).join(''));
  const outcomes = path.join(dir, 'outcomes.jsonl');
  writeFileSync(outcomes, `${JSON.stringify({ task: 'fasterxml__jackson-core-1142', outcome: 'fail' })}\n`);
  return { dir, manifest, outcomes, logs: logs.map((f) => path.join(dir, f)) };
}

let plain: CorpusReport;
beforeAll(async () => {
  const run = await cli('report', '--json', JAVA);
  expect(run.code).toBe(0);
  plain = JSON.parse(run.stdout) as CorpusReport;
}, 120_000);

describe('the walk of PATH passes over the files the command names by flag', () => {
  it('report: --manifest and --outcomes inside PATH are not named as skipped, nor counted as files', async () => {
    const f = runsFolder('report');
    const run = await cli('report', '--json', '--manifest', f.manifest, '--outcomes', f.outcomes, f.dir);
    expect(run.stderr).not.toContain('skipped');
    expect(run.code).toBe(0);
    const doc = JSON.parse(run.stdout) as CorpusReport;
    expect(doc.inputs.files).toBe(plain.inputs.files);
    expect(doc.counts.trajectories).toBe(15);
    // The manifest was read all the same: every run has its model from it.
    expect(doc.trajectories.every((t) => t.model !== null && !t.model.includes('not named'))).toBe(true);
  }, 60_000);

  it('the same file named another way: a relative path, or a link to it outside PATH', async () => {
    const f = runsFolder('spelled');
    const relative = await cli('report', '--json', '--manifest', path.relative(process.cwd(), f.manifest), '--outcomes', f.outcomes, f.dir);
    expect(relative.stderr).not.toContain('skipped');
    const link = path.join(tmp, 'manifest-link.jsonl');
    symlinkSync(f.manifest, link);
    const linked = await cli('report', '--json', '--manifest', link, '--outcomes', f.outcomes, f.dir);
    expect(linked.stderr).not.toContain('skipped');
    expect(linked.code).toBe(0);
  }, 60_000);

  it('a broken log beside the manifest is still named and still makes exit 1 (0 with --lenient)', async () => {
    const f = runsFolder('broken');
    // A real run cut in half (an interrupted copy), not a hand-written one.
    const cut = path.join(path.dirname(f.logs[0]!), 'cut-short.traj');
    const text = readFileSync(f.logs[0]!, 'utf8');
    writeFileSync(cut, text.slice(0, Math.floor(text.length / 2)));
    const strict = await cli('report', '--json', '--manifest', f.manifest, '--outcomes', f.outcomes, f.dir);
    expect(strict.code).toBe(1);
    expect(strict.stderr).toContain(`skipped ${cut}: `);
    expect(strict.stderr).not.toContain('manifest.jsonl');
    expect(strict.stderr).not.toContain('outcomes.jsonl');
    const lenient = await cli('report', '--json', '--lenient', '--manifest', f.manifest, '--outcomes', f.outcomes, f.dir);
    expect(lenient.code).toBe(0);
    expect(lenient.stderr).toContain(`skipped ${cut}: `);
  }, 60_000);

  it("a file given as PATH itself is still read (and named when it is no log): only the walk passes over the flags' files", async () => {
    const f = runsFolder('explicit');
    const run = await cli('report', '--json', '--manifest', f.manifest, '--outcomes', f.outcomes, f.dir, f.manifest);
    expect(run.stderr).toContain(`skipped ${f.manifest}: could not detect the log format`);
  }, 60_000);

  it('report --out, train --out and calibrate --out/--out-dir inside PATH: a second run does not read the first one’s outputs', async () => {
    const f = runsFolder('outputs');
    const commands: Array<{ args: string[]; own: string[] }> = [
      { args: ['report', '--out', path.join(f.dir, 'report'), '--manifest', f.manifest, '--outcomes', f.outcomes, f.dir], own: ['report.json'] },
      { args: ['train', '--out', path.join(f.dir, 'forecast.json'), '--folds', '2', '--manifest', f.manifest, '--outcomes', f.outcomes, f.dir], own: ['forecast.json'] },
      {
        args: ['calibrate', '--out', path.join(f.dir, 'policy.json'), '--out-dir', path.join(f.dir, 'calibration'), '--manifest', f.manifest, '--outcomes', f.outcomes, f.dir],
        own: ['policy.json', 'calibration.json'],
      },
    ];
    for (const { args, own } of commands) {
      const first = await cli(...args);
      expect(first.code, `${args[0]}: ${first.stderr}`).toBe(0);
      const second = await cli(...args);
      expect(second.code, `${args[0]}: ${second.stderr}`).toBe(0);
      // Each names none of its own files (another command's outputs, as report.json under train, are not its own).
      for (const file of [...own, 'manifest.jsonl', 'outcomes.jsonl']) expect(second.stderr, `${args[0]}`).not.toContain(file);
    }
  }, 120_000);
});
