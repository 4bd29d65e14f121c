/**
 * `steplens report --references DIR / --bundled`, through the CLI (in-process) on the sample runs in
 * examples/runs: a run whose task has too few other passing runs in PATH is scored against its task's stored
 * PTA, each row names what it was scored against, and the optimism of a run scored against a PTA it helped
 * build is flagged. The reference folder is one a real server wrote (POST /v1/tasks/:task/references).
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli/main.js';
import { packageRoot } from '../../src/package-files.js';
import { CORPUS_DIR } from '../fixtures/corpus.js';
import { readDoc, removeDir, startApp, tempDir } from '../server/helpers.js';

const ROOT = packageRoot();
const SAMPLES = ['examples/runs', '--outcomes', 'examples/runs/outcomes.csv'];
const DJANGO = 'django__django-11099';
/** Two passing corpus runs of django__django-11099 other than the sample run (OpenHands + Claude 3.5 Sonnet). */
const DJANGO_OTHERS = [
  'gruckion__mini-swe-agent/swebench_results/20251118_gemini-3-pro-74pct/trajs/django__django-11099/django__django-11099.traj.json',
  'SWE-agent__mini-swe-agent__pull-refs/output/deepseek_bench1/django__django-11099/django__django-11099.traj.json',
].map((p) => path.join(CORPUS_DIR, p));

interface Row {
  id: string;
  task: string | null;
  outcome: string;
  run: string;
  score?: { total: number };
  unscored?: string;
  reference?: { kind: string; source?: string; version?: number; references: number; holdsRun?: boolean };
}

/** `steplens report` in-process, from the checkout's root (SAMPLES are relative to it). */
async function report(...args: string[]) {
  let stdout = '';
  let stderr = '';
  const code = await runCli(['report', ...args], { stdout: (s) => void (stdout += s), stderr: (s) => void (stderr += s), stderrIsTTY: false, cwd: ROOT, env: {} });
  return { code, stdout, stderr };
}

const row = (rows: Row[], run: string) => rows.find((r) => r.run === run)!;

let dataDir: string;
beforeAll(async () => {
  // A server's data folder holding a django__django-11099 PTA learned from two runs the samples do not include.
  dataDir = await tempDir();
  const srv = await startApp({ dataDir });
  try {
    for (const file of DJANGO_OTHERS) {
      const res = await fetch(`${srv.url}/v1/tasks/${DJANGO}/references`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ trajectory: await readDoc(file) }),
      });
      expect(res.status).toBe(201);
    }
  } finally {
    await srv.app.close();
  }
}, 120_000); // two PTA merges on a server: seconds on a quiet machine, longer while other test files share the cores
afterAll(async () => {
  await removeDir(dataDir);
});

describe('report --references / --bundled', () => {
  it('without them every run with a step is scored reference-free (no sample task has 3 passing runs for an in-folder PTA)', async () => {
    const r = await report(...SAMPLES, '--json');
    expect(r.code).toBe(0);
    const doc = JSON.parse(r.stdout) as { counts: Record<string, number>; trajectories: Row[]; warnings: string[] };
    // 10 sample runs, one without steps. pylint-dev__astroid-1196 has 2 passing runs: each has 1 other, so none of
    // the task's runs is scored against an in-folder PTA (one reference kind per task).
    expect(doc.counts).toMatchObject({ scored: 9, scoredExternal: 0, scoredReferenceFree: 9, unscoredNoSteps: 1, unscoredNoReference: 0, unscoredNoTask: 0 });
    for (const t of doc.trajectories.filter((x) => x.unscored === undefined)) expect(t.reference, t.id).toEqual({ kind: 'reference-free', priorReferences: 11 });
    expect(doc.warnings).toEqual([]);
    expect(r.stderr).toBe('');
  });

  it('--bundled scores the runs of tasks with a bundled PTA, names it, and warns once that runs it holds score high', async () => {
    const out = mkdtempSync(path.join(tmpdir(), 'steplens-report-bundled-'));
    const r = await report(...SAMPLES, '--bundled', '--out', out);
    expect(r.code).toBe(0);
    const doc = JSON.parse(readFileSync(path.join(out, 'report.json'), 'utf8')) as { counts: Record<string, number>; trajectories: Row[] };
    // 10 sample runs: 1 has no steps; the one naming no task and django__django-13401 (no PTA anywhere) are scored reference-free.
    expect(doc.counts).toMatchObject({ scored: 9, scoredExternal: 7, scoredReferenceFree: 2, unscoredNoReference: 0 });
    const rows = doc.trajectories;
    expect(row(rows, 'deepseek_lite_dev_noparallel').reference).toMatchObject({ kind: 'external', source: 'bundled', holdsRun: false });
    // Every passing sample run is one of the bundled PTAs' sources: the PTA holds its path.
    for (const t of rows.filter((x) => x.outcome === 'pass')) {
      expect(t.reference, t.id).toEqual({ kind: 'external', source: 'bundled', version: 1, references: t.reference!.references, holdsRun: true });
    }
    // The failing doubao run never was.
    expect(row(rows, 'doubao-pro-128k').reference).toEqual({ kind: 'external', source: 'bundled', version: 1, references: 3, holdsRun: false });
    expect(row(rows, 'deepseek_bench1').reference).toMatchObject({ kind: 'reference-free' });
    const warnings = r.stderr.split('\n').filter((l) => l.startsWith('warning:'));
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/^warning: 7 trajectories were scored against an external PTA, 5 of them not failing\. .*optimistic: 5 of the 7 follow/);
    expect(readFileSync(path.join(out, 'report.md'), 'utf8')).toContain(`- **Caution:** ${warnings[0]!.slice('warning: '.length)}`);
    const csv = readFileSync(path.join(out, 'trajectories.csv'), 'utf8').split('\n');
    expect(csv[0]).toMatch(/^task,agent,model,run,outcome,steps,reference_kind,references,reference,holds_run,unscored,score,/);
    expect(csv.find((l) => l.includes(',doubao-pro-128k,'))).toMatch(/,fail,12,external,3,bundled v1,no,,\d/);
    expect(readFileSync(path.join(out, 'tasks.csv'), 'utf8')).toContain(`${DJANGO},1,1,0,0,1,1,0,"bundled v1 (3 refs, 1 scored)"`);
  });

  it('--references DIR (a server data folder) comes before --bundled; a PTA built without the run does not hold it', async () => {
    const [withServer, bundledOnly] = await Promise.all([report(...SAMPLES, '--references', dataDir, '--bundled', '--json'), report(...SAMPLES, '--bundled', '--json')]);
    expect(withServer.code).toBe(0);
    const rows = (JSON.parse(withServer.stdout) as { trajectories: Row[] }).trajectories;
    const claude = row(rows, 'claude-3.5-sonnet');
    expect(claude.reference).toEqual({ kind: 'external', source: dataDir, version: 2, references: 2, holdsRun: false });
    const before = row((JSON.parse(bundledOnly.stdout) as { trajectories: Row[] }).trajectories, 'claude-3.5-sonnet');
    expect(before.reference).toMatchObject({ source: 'bundled', holdsRun: true });
    // Scored against a PTA that contains it, the run scores higher than against one built from other runs.
    expect(before.score!.total).toBeGreaterThan(claude.score!.total);
    expect(row(rows, 'kimi-k2-instruct-0905').reference).toMatchObject({ source: 'bundled', version: 1 });
    expect(withServer.stderr).toMatch(/^warning: 7 trajectories .* 4 of the 7 follow/);
  });

  it('a folder that cannot be read, holds no PTA, or holds a broken PTA of a scored task is one clear error', async () => {
    const missing = await report(...SAMPLES, '--references', '/nonexistent/steplens-refs');
    expect([missing.code, missing.stderr]).toEqual([1, 'steplens report: cannot read the reference folder /nonexistent/steplens-refs: ENOENT\n']);
    const empty = mkdtempSync(path.join(tmpdir(), 'steplens-refs-empty-'));
    const none = await report(...SAMPLES, '--references', empty);
    expect([none.code, none.stderr]).toEqual([1, `steplens report: the reference folder ${empty} holds no stored PTA (<task>.json)\n`]);
    const broken = mkdtempSync(path.join(tmpdir(), 'steplens-refs-broken-'));
    writeFileSync(path.join(broken, 'dask__dask-8685.json'), '{"schema":1}');
    const bad = await report(...SAMPLES, '--references', broken);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toMatch(new RegExp(`^steplens report: stored PTA ${broken}/dask__dask-8685\\.json is unusable: .+\\n$`));
  });
});
