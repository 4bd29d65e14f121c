import { beforeAll, describe, expect, it } from 'vitest';
import type { CorpusReport } from '../../src/report/types.js';
import { CORPUS, corpusReport, sourcesOutcomes } from './corpus-fixture.js';

let report: CorpusReport;
beforeAll(() => {
  report = corpusReport();
});

const rel = (id: string) => id.replace(CORPUS, '');

describe('report on the packed corpus', () => {
  it('finds every SWE-bench-style trajectory of SOURCES.md with the outcome the table states', () => {
    const expected = sourcesOutcomes();
    expect(expected.size).toBe(55);
    for (const [path, o] of expected) {
      const row = report.trajectories.find((t) => rel(t.id) === path);
      expect(row, path).toBeDefined();
      // Decisions: the reasoner's provider time-out (0 steps, no patch) is censored;
      // the PR #854 run has no evaluation file (its outcome is in a README), so unknown.
      const want = o === 'no-patch' ? 'censored' : o === 'unofficial' ? 'unknown' : o;
      expect(row!.outcome, path).toBe(want);
    }
  });

  it('skips the evaluation and task files cleanly, with a count', () => {
    expect(report.inputs.files).toBe(109);
    expect(report.inputs.files).toBe(report.inputs.skippedFiles + new Set(report.trajectories.map((t) => t.id.replace(/#\d+$/, ''))).size);
    const aux = report.inputs.skipped.filter((s) => s.reason === 'evaluation or task metadata');
    expect(aux.length).toBeGreaterThanOrEqual(44);
    expect(report.inputs.skipped.every((s) => !s.path.endsWith('.traj'))).toBe(true);
  });

  it('lists the tasks with references: those with at least two passing trajectories', () => {
    const withRefs = report.tasks
      .filter((t) => t.references >= 2)
      .map((t) => t.task)
      .sort();
    expect(withRefs).toEqual([
      'astropy__astropy-12907',
      'bokeh__bokeh-13370',
      'dask__dask-8685',
      'django__django-10914',
      'django__django-11099',
      'django__django-11999',
      'django__django-13401',
      'facebookresearch__hydra-1915',
      'fasterxml__jackson-core-1142',
      'fasterxml__jackson-databind-3701',
      'fasterxml__jackson-databind-4486',
      'pylint-dev__astroid-1196',
      'pylint-dev__astroid-1866',
    ]);
  });

  it('scores every scorable trajectory, passing ones leave-one-out', () => {
    for (const t of report.trajectories) {
      const task = report.tasks.find((x) => x.task === t.task)!;
      const available = t.outcome === 'pass' && t.steps > 0 ? task.references - 1 : task.references;
      const scorable = t.steps > 0 && available >= 2;
      expect(t.score !== undefined, t.id).toBe(scorable);
      if (scorable) expect(t.references, t.id).toBe(available);
      else expect(t.unscored, t.id).toBe(t.steps === 0 ? 'no_steps' : t.task === null ? 'no_task' : 'no_reference');
    }
    expect(report.counts.scored).toBeGreaterThanOrEqual(25);
  });

  it('counts add up', () => {
    const c = report.counts;
    expect(c.pass + c.fail + c.censored + c.unknown).toBe(c.trajectories);
    expect(c.scored + c.unscoredNoReference + c.unscoredNoSteps + c.unscoredNoTask).toBe(c.trajectories);
    expect(c.unscoredNoTask).toBeGreaterThan(0);
    expect(report.tasks.reduce((s, t) => s + t.trajectories, 0)).toBe(c.trajectories);
    expect(report.tasks.reduce((s, t) => s + t.scored, 0)).toBe(c.scored);
    for (const t of report.tasks) expect(t.passing + t.failing + t.other).toBe(t.trajectories);
    expect(report.models.reduce((s, m) => s + m.trajectories, 0)).toBe(c.trajectories);
    const total = report.separation.find((s) => s.signal === 'total')!;
    expect(total.nPass).toBe(report.trajectories.filter((t) => t.outcome === 'pass' && t.score).length);
    expect(total.nFail).toBe(report.trajectories.filter((t) => t.outcome === 'fail' && t.score).length);
  });

  it('tier shares sum to 1 and ranks are (tie-averaged) permutations', () => {
    for (const m of report.models) {
      if (m.tierShares) expect(m.tierShares.Ideal + m.tierShares.Solid + m.tierShares.Lucky).toBeCloseTo(1, 12);
      expect(m.tiers.Ideal + m.tiers.Solid + m.tiers.Lucky).toBe(m.scoredPassing);
      expect(Object.values(m.luckyMix).reduce((s, v) => s + v, 0)).toBe(m.tiers.Lucky);
    }
    const ranked = report.models.filter((m) => m.rankPass !== null);
    expect(ranked.length).toBeGreaterThanOrEqual(5);
    const n = ranked.length;
    for (const key of ['rankPass', 'rankQuality'] as const) {
      const ranks = ranked.map((m) => m[key]!);
      expect(ranks.reduce((s, v) => s + v, 0)).toBeCloseTo((n * (n + 1)) / 2, 9);
      for (const r of ranks) expect(r >= 1 && r <= n).toBe(true);
    }
    for (const m of ranked) expect(m.rankShift).toBe(m.rankPass! - m.rankQuality!);
  });

  it('reports AUROC and KS for the composite and each signal', () => {
    expect(report.separation.map((s) => s.signal)).toEqual(['total', 'struct', 'cov', 'coh', 'temp']);
    for (const s of report.separation) {
      expect(s.auroc).not.toBeNull();
      expect(s.auroc! >= 0 && s.auroc! <= 1).toBe(true);
      expect(s.ksP! >= 0 && s.ksP! <= 1).toBe(true);
    }
  });
});

describe('multi-trial reliability on the repeated astroid runs', () => {
  it('matches a hand count (SOURCES.md group D)', () => {
    const cfgs = report.reliability.configurations;
    expect(cfgs).toHaveLength(1);
    const c = cfgs[0]!;
    expect(c.configuration).toContain('deepseek/deepseek-chat');
    expect(c.taskIds).toEqual(['pylint-dev__astroid-1196', 'pylint-dev__astroid-1866']);
    // 1196: chat_dev pass, rerun pass, noparallel fail; 1866: pass, pass, fail.
    expect(c).toMatchObject({ tasks: 2, kMin: 3, kMax: 3, planned: 6, completed: 6, passes: 4, passAtK: 1, allPassConditional: 0, allPassConservative: 0, cr: 1, jcr: 1, front: 1 });
    expect(c.pAttempt).toBeCloseTo(4 / 6, 12);
    // Final patch sizes counted by hand from info.submission (+/- lines).
    const patch = Object.fromEntries(report.reliability.attempts.map((a) => [`${a.run}/${a.task.slice(-4)}`, a.patchLines]));
    expect(patch).toEqual({
      'deepseek_chat_dev/1196': 18,
      'deepseek_chat_dev_rerun/1196': 18,
      'deepseek_lite_dev_noparallel/1196': 13,
      'deepseek_chat_dev/1866': 15,
      'deepseek_chat_dev_rerun/1866': 6,
      'deepseek_lite_dev_noparallel/1866': 6,
    });
    const calls = Object.fromEntries(report.reliability.attempts.map((a) => [`${a.run}/${a.task.slice(-4)}`, a.toolCalls]));
    expect(calls['deepseek_chat_dev/1196']).toBe(62);
    expect(calls['deepseek_chat_dev_rerun/1866']).toBe(102);
  });
  it('the deepseek-reasoner time-out is a censored attempt of its own configuration', () => {
    const r = report.trajectories.find((t) => t.run === 'deepseek_reasoner_dev')!;
    expect(r).toMatchObject({ outcome: 'censored', steps: 0, unscored: 'no_steps', exitStatus: 'Timeout' });
    expect(report.reliability.attempts.some((a) => a.run === 'deepseek_reasoner_dev')).toBe(false);
  });
});
