import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { scoreDocument } from '../../src/cli/commands/score.js';
import { CORPUS, cli } from './run-cli.js';

/** The `score --json` document, as printed. */
type ScoreDoc = ReturnType<typeof scoreDocument>;

const dir = mkdtempSync(join(tmpdir(), 'steplens-cmd-'));
const DASK = 'christsakm__Trajectories/TODO/dask__dask-8685';
const daskRuns = ['trace_01_gpt-5-2025-08-07', 'trace_02_kimi-k2-instruct-0905', 'trace_03_qwen3-coder-480b-a35b-instruct'].map((r) => join(CORPUS, DASK, r, 'dask__dask-8685.traj'));
const miniTraj = join(CORPUS, 'SWE-agent__mini-swe-agent__pull-refs/output/deepseek_chat_dev/pylint-dev__astroid-1196/pylint-dev__astroid-1196.traj.json');

interface LabelDoc {
  format: string;
  steps: Array<{ t: number; stage: string; tool: string; kind: string; file?: string; command?: string }>;
  diagnostics: unknown[];
}

describe('steplens label / convert', () => {
  it('labels a real SWE-agent trajectory with the cli.md JSON shape', async () => {
    const run = await cli('label', daskRuns[0]!, '--json');
    expect(run.code).toBe(0);
    const doc = JSON.parse(run.stdout) as LabelDoc;
    expect(doc.format).toBe('swe-agent');
    expect(doc.steps.length).toBe(27);
    doc.steps.forEach((s, i) => {
      expect(s.t).toBe(i);
      expect(['E', 'I', 'V', 'O']).toContain(s.stage);
      expect(typeof s.tool).toBe('string');
    });
    expect(doc.steps.some((s) => s.stage === 'I')).toBe(true);
  });

  it('prints a readable table by default', async () => {
    const run = await cli('label', miniTraj);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^\s*t\s+stage\s+kind/);
    expect(run.stdout).toContain('mini-swe-agent');
  });

  it('convert then label gives the same labels as labelling the original', async () => {
    for (const file of [daskRuns[1]!, miniTraj]) {
      const converted = await cli('convert', file);
      expect(converted.code).toBe(0);
      const jsonl = join(dir, 'converted.jsonl');
      writeFileSync(jsonl, converted.stdout);
      const a = JSON.parse((await cli('label', file, '--json')).stdout) as LabelDoc;
      const b = JSON.parse((await cli('label', jsonl, '--json')).stdout) as LabelDoc;
      expect(b.format).toBe('steplens');
      expect(b.diagnostics).toEqual([]);
      expect(b.steps).toEqual(a.steps);
    }
  });
});

describe('steplens build-pta / score', () => {
  it('builds a PTA from three passing runs and scores against it', async () => {
    const out = join(dir, 'dask.json');
    const built = await cli('build-pta', '--task', 'dask__dask-8685', '--out', out, ...daskRuns, '--json');
    expect(built.code).toBe(0);
    const info = JSON.parse(built.stdout) as { task: string; references: number; nodes: number; paths: number; version: number };
    expect(info).toMatchObject({ task: 'dask__dask-8685', references: 3 });
    expect(info.paths).toBeGreaterThanOrEqual(1);
    expect(info.paths).toBeLessThanOrEqual(3);
    expect((JSON.parse(readFileSync(out, 'utf8')) as { task: string }).task).toBe('dask__dask-8685');

    const scored = await cli('score', daskRuns[0]!, '--pta', out, '--passed', '--json');
    expect(scored.code).toBe(0);
    const doc = JSON.parse(scored.stdout) as ScoreDoc;
    expect(Object.keys(doc)).toEqual(expect.arrayContaining(['score', 'tier', 'waste', 'signals', 'steps', 'stages', 'reference']));
    expect(doc.reference).toMatchObject({ kind: 'pta', version: info.version, paths: info.paths });
    expect(doc.steps).toBe(27);
    expect(doc.stages).toMatch(/^[EIVO]{27}$/);
    expect(['Ideal', 'Solid', 'Lucky']).toContain(doc.tier);
    for (const k of ['total', 'struct', 'cov', 'coh', 'temp'] as const) expect(typeof doc.score[k]).toBe('number');
  });

  it('a trajectory against a PTA built only from itself scores struct = cov = 100, temp = 1', async () => {
    const out = join(dir, 'self.json');
    expect((await cli('build-pta', '--task', 'x', '--out', out, '--min-refs', '1', daskRuns[2]!)).code).toBe(0);
    const doc = JSON.parse((await cli('score', daskRuns[2]!, '--pta', out, '--json')).stdout) as ScoreDoc;
    expect(doc.score.struct).toBe(100);
    expect(doc.score.cov).toBe(100);
    expect(doc.score.temp).toBe(1);
  });

  it('scores reference-free against the prior when no PTA is given', async () => {
    const run = await cli('score', miniTraj, '--failed', '--json');
    expect(run.code).toBe(0);
    const doc = JSON.parse(run.stdout) as ScoreDoc;
    expect(doc.reference.kind).toBe('prior');
    expect(doc.score.struct).toBeNull();
    expect(doc.score.cov).toBeNull();
    expect(['Partial-fail', 'Off-track']).toContain(doc.tier);
  });

  it('prints a human summary by default', async () => {
    const run = await cli('score', miniTraj);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/score \d/);
    expect(run.stdout).toMatch(/tier (Ideal|Solid|Lucky)/);
  });
});

describe('steplens score --policy / --config', () => {
  const django = join(
    CORPUS,
    'gsmoon97__swe-agent-eval/evaluation/python/verified/20250329_OpenHands_Claude-3.5-Sonnet(Oct)/trajs/django__django-13401/Claude-3.5-Sonnet(Oct)-1743404604.7377915.json',
  );

  // A run that re-sends the same edit four times in a row (steps 18-21 repeat 17): real blind retries.
  const retrying = join(CORPUS, 'multi-swe-bench__experiments/evaluation/java/verified/20240825_SWE-agent_gpt-4o-mini-2024-07-18/trajs/fasterxml__jackson-databind-3701.traj');

  it('a stricter policy file makes the blind-retry stop fire earlier than the default', async () => {
    const strict = join(dir, 'strict.json');
    writeFileSync(strict, JSON.stringify({ blindRetry: { warn: 1, stop: 2 } }));
    const byDefault = JSON.parse((await cli('score', retrying, '--json')).stdout) as { signals: Array<{ kind: string; severity: string; t: number }> };
    const strictDoc = JSON.parse((await cli('score', retrying, '--json', '--policy', strict)).stdout) as typeof byDefault;
    const stops = (d: typeof byDefault) => d.signals.filter((s) => s.kind === 'blind_retry' && s.severity === 'stop').map((s) => s.t);
    expect(stops(strictDoc).length).toBeGreaterThan(0);
    expect(stops(strictDoc)[0]!).toBeLessThan(stops(byDefault)[0] ?? Infinity);
  });

  it('config weights change the composite; a bad policy or config file is a one-line error naming it', async () => {
    const cohOnly = join(dir, 'coh.json');
    // Scored reference-free (no --pta): the prior-mode weights apply.
    writeFileSync(cohOnly, JSON.stringify({ priorWeights: { coh: 1, temp: 0, focus: 0, verify: 0, brevity: 0, edit: 0, settle: 0 } }));
    const doc = JSON.parse((await cli('score', django, '--json', '--config', cohOnly)).stdout) as { score: { total: number; coh: number } };
    expect(doc.score.total).toBeCloseTo(100 * doc.score.coh, 9);
    const bad = join(dir, 'bad-policy.json');
    writeFileSync(bad, JSON.stringify({ blindRetry: { warn: 'three' } }));
    const run = await cli('score', django, '--policy', bad);
    expect(run.code).toBe(1);
    expect(run.stderr.trim().split('\n')).toHaveLength(1);
    expect(run.stderr).toContain(bad);
    expect(run.stderr).toContain('blindRetry.warn');
  });
});

describe('steplens show-pta', () => {
  it('prints the readable summary of a bundled reference, and --json the same counts build-pta reports', async () => {
    const pta = new URL('../../data/example/dask__dask-8685.json', import.meta.url).pathname;
    const text = await cli('show-pta', pta);
    expect(text.code).toBe(0);
    expect(text.stdout).toMatch(/^PTA dask__dask-8685 v1: 3 references, \d+ nodes, 3 paths\n/);
    expect(text.stdout).toMatch(/\n {4}[├└] #\d+ [EIVO] /);
    const doc = JSON.parse((await cli('show-pta', pta, '--json')).stdout) as { references: number; nodes: number; paths: number; nodeDetails: unknown[] };
    expect(doc).toMatchObject({ references: 3, paths: 3 });
    expect(doc.nodeDetails).toHaveLength(doc.nodes);
    const bad = await cli('show-pta', join(dir, 'missing.json'));
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain('missing.json');
  });
});
