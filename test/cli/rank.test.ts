/**
 * `steplens rank` through the built bin (dist/bin/steplens.js, the bundle users run) on real corpus runs of one task: the basis it orders by
 * (PTA, reference-free, consensus, forecast), the JSON document, and bad input (mixed tasks, a run without
 * steps, exclusive flags, a missing file), each one line on stderr with exit 1 and nothing on stdout.
 */
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { selectModel } from '../../src/core/forecast/model.js';
import { UNIFORM_PRIOR } from '../../src/core/prior.js';
import { scoreSteps } from '../../src/core/scorer.js';
import { defaultAnalyzers } from '../../src/syntax/index.js';
import { forecastFileOf, labelledRuns } from '../forecast/fixtures.js';
import { readSteps } from '../server/helpers.js';
import { CORPUS } from './run-cli.js';
import { RANK_BIN, rankBin, rankJson } from './rank-bin.js';

const M = path.join(CORPUS, 'SWE-agent__mini-swe-agent__pull-refs/output');
const run = (name: string, task: string) => path.join(M, name, task, `${task}.traj.json`);
const A1196 = ['deepseek_chat_dev', 'deepseek_chat_dev_rerun', 'deepseek_lite_dev_noparallel'].map((n) => run(n, 'pylint-dev__astroid-1196'));
const A1866 = ['deepseek_chat_dev', 'deepseek_chat_dev_rerun', 'deepseek_lite_dev_noparallel'].map((n) => run(n, 'pylint-dev__astroid-1866'));
const dir = mkdtempSync(path.join(os.tmpdir(), 'steplens-rank-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const steplens = rankBin;
const json = rankJson;

describe.skipIf(!existsSync(RANK_BIN))('steplens rank (dist)', () => {
  it('ranks the runs of a task against its bundled PTA, best first, and warns about runs the PTA was built from', () => {
    const r = steplens('--bundled', ...A1196);
    expect(r.code).toBe(0);
    const lines = r.stdout.split('\n');
    expect(lines[0]).toBe("pylint-dev__astroid-1196: 3 runs ordered by the composite against the task's PTA");
    expect(lines[2]).toMatch(/^rank\s+run\s+score\s+composite\s+reference\s+steps$/);
    expect(lines.slice(4, 7).map((l) => l.split(/\s+/)[0])).toEqual(['1', '2', '3']);
    // Named as in the table: the shortest end of the path no other run shares.
    expect(r.stderr).toMatch(
      /^warning: the PTA holds the path of deepseek_chat_dev\/pylint-dev__astroid-1196\/pylint-dev__astroid-1196\.traj\.json, deepseek_chat_dev_rerun\/pylint-dev__astroid-1196\/pylint-dev__astroid-1196\.traj\.json \(a reference it was built from\): scored optimistically against it\n$/,
    );
    const doc = json('--bundled', ...A1196);
    expect(doc.by).toBe('pta');
    expect(doc.runs.map((x) => x.composite)).toEqual([...doc.runs.map((x) => x.composite)].sort((a, b) => b - a));
  });

  it('without a reference ranks reference-free, by the consensus when asked, and by P(pass) with --forecast', async () => {
    const free = json(...A1866);
    expect(free.by).toBe('reference-free');
    expect(free.task).toBe('pylint-dev__astroid-1866');
    expect(json('--consensus', ...A1866).by).toBe('consensus');
    const file = forecastFileOf(labelledRuns());
    const f = path.join(dir, 'forecast.json');
    writeFileSync(f, JSON.stringify(file));
    const withForecast = json('--forecast', f, ...A1866);
    expect(withForecast.by).toBe('pPass');
    const model = selectModel(file, undefined, undefined)!;
    for (const x of withForecast.runs) {
      const offline = scoreSteps(await readSteps(A1866[x.index]!), { reference: { kind: 'prior', prior: UNIFORM_PRIOR }, analyzers: defaultAnalyzers(), forecast: model });
      expect(x.pPass).toBeCloseTo(offline.report.pPass!, 12);
      expect(x.score).toBe(x.pPass);
    }
  }, 120_000);

  it('bad input: one line on stderr naming it, exit 1, nothing on stdout', () => {
    const cases: Array<[string[], RegExp]> = [
      [
        [...A1196, A1866[0]!],
        /^steplens rank: the runs are of 2 tasks: pylint-dev__astroid-1196 \(.*\); pylint-dev__astroid-1866 \(.*deepseek_chat_dev\/pylint-dev__astroid-1866.*\); rank compares runs of one task \(--mixed-tasks ranks them anyway\)$/,
      ],
      [[run('deepseek_reasoner_dev', 'pylint-dev__astroid-1196')], /^steplens rank: no run has a step: .*deepseek_reasoner_dev.*$/],
      [['--pta', 'x.json', '--bundled', A1196[0]!], /^steplens rank: --pta and --references\/--bundled are exclusive$/],
      [[], /^steplens rank: expected at least one FILE/],
      [['/nonexistent/run.traj'], /^steplens rank: .*\/nonexistent\/run\.traj/],
    ];
    for (const [args, message] of cases) {
      const r = steplens(...args);
      expect(r.code, args.join(' ')).toBe(1);
      expect(r.stdout).toBe('');
      expect(r.stderr.trim().split('\n')).toHaveLength(1);
      expect(r.stderr.trim()).toMatch(message);
    }
    // A rollout with no step (timed out) does not refuse the group: the others are ranked, it is named as not ranked.
    const empty = run('deepseek_reasoner_dev', 'pylint-dev__astroid-1196');
    const group = json(A1196[0]!, empty, A1196[1]!);
    expect(group.runs.map((x) => x.index).sort()).toEqual([0, 2]);
    expect(group.unranked).toEqual([{ index: 1, id: empty, task: 'pylint-dev__astroid-1196', reason: 'no steps' }]);
    const text = steplens(A1196[0]!, empty, A1196[1]!);
    expect(text.code).toBe(0);
    // The table's short name (rank-names.test.ts): the shortest path suffix no other run ends with.
    expect(text.stdout).toContain('not ranked: deepseek_reasoner_dev/pylint-dev__astroid-1196/pylint-dev__astroid-1196.traj.json (no steps)');
    const anyway = json('--mixed-tasks', A1196[0]!, A1866[0]!);
    expect(anyway.task).toBe(null);
    expect(anyway.runs).toHaveLength(2);
  });
});
