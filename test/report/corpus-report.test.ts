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

  it('scores every trajectory with a step: in-folder (leave-one-out) only where every run of the task has a PTA, else reference-free', () => {
    for (const t of report.trajectories) {
      if (t.steps === 0) {
        expect(t.unscored, t.id).toBe('no_steps');
        continue;
      }
      expect(t.score, t.id).toBeDefined();
      const task = report.tasks.find((x) => x.task === t.task)!;
      // One kind per task: each passing run needs 2 OTHER passing runs, so a task needs 3.
      const inFolder = t.task !== null && task.references >= 3;
      expect(t.reference?.kind, t.id).toBe(inFolder ? 'in-folder' : 'reference-free');
      // Size-matched: every run meets a PTA of n − 1 passing runs (a passing run never its own; a failing one, one of those).
      if (inFolder) expect(t.references, t.id).toBe(task.references - 1);
      if (!inFolder) expect(t.score!.struct, t.id).toBeNull();
    }
    expect(report.counts.scored).toBe(report.counts.trajectories - report.counts.unscoredNoSteps);
  });

  it('counts add up', () => {
    const c = report.counts;
    expect(c.pass + c.fail + c.censored + c.unknown).toBe(c.trajectories);
    expect(c.scored + c.unscoredNoReference + c.unscoredNoSteps + c.unscoredNoTask).toBe(c.trajectories);
    expect(c.unscoredNoTask).toBe(0);
    expect(c.unscoredNoReference).toBe(0);
    expect(report.tasks.reduce((s, t) => s + t.trajectories, 0)).toBe(c.trajectories);
    expect(report.tasks.reduce((s, t) => s + t.scored, 0)).toBe(c.scored);
    for (const t of report.tasks) expect(t.passing + t.failing + t.other).toBe(t.trajectories);
    expect(report.models.reduce((s, m) => s + m.trajectories, 0)).toBe(c.trajectories);
    expect(report.models.reduce((s, m) => s + m.scored, 0)).toBe(c.scored);
    const total = report.separation.find((s) => s.signal === 'total')!;
    expect(total.nPass).toBe(report.trajectories.filter((t) => t.outcome === 'pass' && t.score).length);
    expect(total.nFail).toBe(report.trajectories.filter((t) => t.outcome === 'fail' && t.score).length);
  });

  it('tier shares sum to 1; ranks count the sources clearly above and skip sources below the minimum of runs', () => {
    for (const m of report.models) {
      if (m.tierShares) expect(m.tierShares.Ideal + m.tierShares.Solid + m.tierShares.Lucky).toBeCloseTo(1, 12);
      expect(m.tiers.Ideal + m.tiers.Solid + m.tiers.Lucky).toBe(m.scoredPassing);
      expect(Object.values(m.luckyMix).reduce((s, v) => s + v, 0)).toBe(m.tiers.Lucky);
    }
    expect(report.statistics.minRuns).toBe(10);
    // One source has >= 10 evaluated runs: a rank among one is no ranking, so none is ranked (rank-among-one.test.ts).
    expect(report.models.filter((m) => m.evaluated >= 10)).toHaveLength(1);
    for (const m of report.models) {
      expect(m.rankPass, m.source).toBeNull();
      expect(m.unrankedPass, m.source).toMatch(/^n \d+ < 10$|^no estimate$|^the only entry with n >= 10: a rank needs 2$/);
      if (m.passRate !== null) {
        expect(m.passRateInterval!.lo).toBeLessThanOrEqual(m.passRate);
        expect(m.passRateInterval!.hi).toBeGreaterThanOrEqual(m.passRate);
      }
    }
    // With --min-runs 3 more sources qualify, but they ran different tasks (none run by all of them): none is ranked
    // (rank-shared.test.ts). The multi-swe-bench sources ran the same 3 tasks: ranked among themselves as before.
    const low = corpusReport([CORPUS], { minRuns: 3 });
    expect(low.models.filter((m) => m.rankPass !== null)).toEqual([]);
    expect(low.models.filter((m) => m.rankPassOn !== undefined).length).toBeGreaterThanOrEqual(5);
    const java = corpusReport([`${CORPUS}multi-swe-bench__experiments`], { minRuns: 3 });
    const ranked = java.models.filter((m) => m.rankPass !== null);
    expect(ranked.length).toBeGreaterThanOrEqual(2);
    for (const m of ranked) {
      expect(m.rankPassOn).toBeUndefined();
      const above = ranked.filter((o) => o.passRateInterval!.lo > m.passRateInterval!.hi).length;
      expect(m.rankPass, m.source).toBe(1 + above);
      expect(m.rankPassTied, m.source).toBe(ranked.some((o) => o !== m && o.passRateInterval!.lo <= m.passRateInterval!.hi && m.passRateInterval!.lo <= o.passRateInterval!.hi));
    }
    for (const m of ranked) if (m.rankQuality !== null) expect(m.rankShift).toBe(m.rankPass! - m.rankQuality);
  });

  it('reports separation within source, within task and pooled beside source-only for the composite and each signal', () => {
    expect(report.separation.map((s) => s.signal)).toEqual(['total', 'struct', 'cov', 'coh', 'temp']);
    for (const s of report.separation) {
      expect(s.pooled.auroc).not.toBeNull();
      expect(s.pooled.sourceOnly).not.toBeNull();
      expect(s.ksP! >= 0 && s.ksP! <= 1).toBe(true);
      expect(s.withinSource.sources.reduce((a, x) => a + x.nPass, 0)).toBe(s.nPass);
    }
    const total = report.separation[0]!;
    expect(total.nPass + total.nFail).toBe(report.trajectories.filter((t) => t.score && (t.outcome === 'pass' || t.outcome === 'fail')).length);
    // struct and cov exist only for runs scored against a PTA.
    expect(report.separation[1]!.nPass + report.separation[1]!.nFail).toBe(
      report.trajectories.filter((t) => t.reference?.kind === 'in-folder' && (t.outcome === 'pass' || t.outcome === 'fail')).length,
    );
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
    expect(c).toMatchObject({ tasks: 2, kMin: 3, kMax: 3, planned: 6, completed: 6, passes: 4, passAtK: 1, allPassConditional: 0, allPassConservative: 0, cr: 1, jcr: 1 });
    // One configuration: no Pareto front (a front among one is no ranking); 2 tasks: no p_attempt interval.
    expect(c).toMatchObject({ front: null, pAttemptInterval: null });
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
