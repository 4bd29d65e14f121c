/**
 * What `steplens rank` says about its runs and references: the table names each run by its shortest unique path
 * suffix (--json keeps the path given), and --bundled / --references that hold no usable PTA of the task say where
 * they looked and what to give instead (it used to say only "no PTA of the task").
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { shortRunNames } from '../../src/cli/run-names.js';
import { bundledReferencesDir } from '../../src/package-files.js';
import { CORPUS } from './run-cli.js';
import { RANK_BIN, rankBin, rankJson } from './rank-bin.js';

const M = path.join(CORPUS, 'SWE-agent__mini-swe-agent__pull-refs/output');
const run = (name: string, task: string) => path.join(M, name, task, `${task}.traj.json`);
const RUNS = ['deepseek_chat_dev', 'deepseek_chat_dev_rerun'];
const A1866 = RUNS.map((n) => run(n, 'pylint-dev__astroid-1866'));
const A1196 = RUNS.map((n) => run(n, 'pylint-dev__astroid-1196'));
const dir = mkdtempSync(path.join(os.tmpdir(), 'steplens-rank-names-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('shortRunNames', () => {
  it('gives each run the shortest path suffix no other run ends with', () => {
    const ids = ['./a/cost_1/t.traj', './a/cost_2/t.traj', '/b/trajs/t.traj', 'x/u.traj', 'out.jsonl#t-1', 'out.jsonl#t-2'];
    expect([...shortRunNames(ids).values()]).toEqual(['cost_1/t.traj', 'cost_2/t.traj', 'trajs/t.traj', 'u.traj', 'out.jsonl#t-1', 'out.jsonl#t-2']);
    // A run whose whole path is the end of another's keeps itself; the other is told apart by its folder.
    expect([...shortRunNames(['t.traj', 'x/t.traj']).values()]).toEqual(['t.traj', 'x/t.traj']);
  });
});

describe.skipIf(!existsSync(RANK_BIN))('steplens rank: run names and the references it searched (dist)', () => {
  it('prints short run names in the table and keeps the paths in --json', () => {
    const r = rankBin(...A1866);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).not.toContain(M);
    const names = r.stdout
      .split('\n')
      .slice(4, 6)
      .map((l) => l.split(/\s+/)[1]);
    expect(names.sort()).toEqual(RUNS.map((n) => `${n}/pylint-dev__astroid-1866/pylint-dev__astroid-1866.traj.json`));
    expect(
      rankJson(...A1866)
        .runs.map((x) => x.id)
        .sort(),
    ).toEqual([...A1866].sort());
  });

  it('--bundled without a PTA of the task names the bundled tasks and what to pass instead', () => {
    const r = rankBin('--bundled', ...A1866);
    expect(r.code, r.stderr).toBe(0);
    const note = r.stdout.slice(r.stdout.indexOf('\nnote: ') + 1);
    expect(note).toMatch(/^note: no PTA of pylint-dev__astroid-1866 in the bundled references, which hold PTAs of [^;]*pylint-dev__astroid-1196; scored against the prior\./);
    expect(note).toContain('give --pta PTA.json, or --references DIR holding pylint-dev__astroid-1866.json');
    // Beside a --json document the note goes to stderr, and stdout stays one JSON document.
    const j = rankBin('--json', '--bundled', ...A1866);
    expect(j.stderr).toMatch(/^note: no PTA of pylint-dev__astroid-1866 in the bundled references/);
    expect(() => JSON.parse(j.stdout) as unknown).not.toThrow();
    // With a PTA of the task found, nothing is noted.
    expect(rankBin('--bundled', ...A1196).stdout).not.toContain('note:');
  });

  it('--references holding a PTA of too few runs says so, naming the folder', () => {
    const pta = JSON.parse(readFileSync(path.join(bundledReferencesDir(), 'pylint-dev__astroid-1196.json'), 'utf8')) as { references: unknown[] };
    pta.references = pta.references.slice(0, 1);
    writeFileSync(path.join(dir, 'pylint-dev__astroid-1196.json'), JSON.stringify(pta));
    const r = rankBin('--references', dir, ...A1196);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain(`note: the PTA of pylint-dev__astroid-1196 in --references ${dir} holds 1 reference run (fewer than 2); scored against the prior.`);
  });
});
