/** The report's tables as plain data, rendered by the terminal, Markdown and CSV writers. */
import { modelLabel, UNNAMED_TASK } from '../identity.js';
import type { CorpusReport, ScoredAgainst } from '../types.js';

export type Cell = string | number | null;

export interface Table {
  /** File stem of the CSV (`models` → models.csv). */
  name: string;
  title: string;
  headers: string[];
  rows: Cell[][];
}

const r3 = (x: number | null | undefined): Cell => (x === null || x === undefined ? null : Math.round(x * 1000) / 1000);
const r1 = (x: number | null | undefined): Cell => (x === null || x === undefined ? null : Math.round(x * 10) / 10);

export function tasksTable(r: CorpusReport): Table {
  return {
    name: 'tasks',
    title: 'Tasks',
    headers: ['task', 'trajectories', 'passing', 'failing', 'other', 'references', 'scored', 'unscored', 'external_pta'],
    rows: r.tasks.map((t) => [
      t.task ?? UNNAMED_TASK,
      t.trajectories,
      t.passing,
      t.failing,
      t.other,
      t.references,
      t.scored,
      t.unscored,
      t.external ? `${t.external.source} v${t.external.version} (${t.external.references} refs, ${t.external.scored} scored)` : null,
    ]),
  };
}

export function modelsTable(r: CorpusReport): Table {
  return {
    name: 'models',
    title: 'Models: pass rate vs. process quality',
    headers: [
      'model',
      'trajectories',
      'evaluated',
      'pass_rate',
      'rank_pass',
      'mean_quality',
      'rank_quality',
      'rank_shift',
      'scored_passing',
      'ideal',
      'solid',
      'lucky',
      'lucky_rate',
      'C1',
      'C2',
      'C3',
      'C4',
      'C5',
      'unclassified',
      'wasted_steps',
      'wasted_tokens',
    ],
    rows: r.models.map((m) => [
      modelLabel(m),
      m.trajectories,
      m.evaluated,
      r3(m.passRate),
      m.rankPass,
      r1(m.meanQuality),
      m.rankQuality,
      m.rankShift,
      m.scoredPassing,
      r3(m.tierShares?.Ideal),
      r3(m.tierShares?.Solid),
      r3(m.tierShares?.Lucky),
      r3(m.luckyRate),
      m.luckyMix.C1,
      m.luckyMix.C2,
      m.luckyMix.C3,
      m.luckyMix.C4,
      m.luckyMix.C5,
      m.luckyMix.unclassified,
      m.wastedSteps,
      m.wastedTokens,
    ]),
  };
}

export function separationTable(r: CorpusReport): Table {
  return {
    name: 'separation',
    title: 'Passing vs. failing: AUROC and Kolmogorov-Smirnov (asymptotic p)',
    headers: ['signal', 'n_pass', 'n_fail', 'auroc', 'ks_d', 'ks_p'],
    rows: r.separation.map((s) => [s.signal, s.nPass, s.nFail, r3(s.auroc), r3(s.ksD), s.ksP === null ? null : Number(s.ksP.toPrecision(3))]),
  };
}

export function luckyTable(r: CorpusReport): Table {
  const c = r.luckyChiSquare;
  return { name: 'lucky-by-model', title: 'Lucky categories by model', headers: ['model', ...c.cols], rows: c.rows.map((m, i) => [m, ...c.table[i]!]) };
}

export function reliabilityTable(r: CorpusReport): Table {
  return {
    name: 'reliability',
    title: 'Multi-trial reliability (repeated tasks only)',
    headers: ['configuration', 'tasks', 'k', 'planned', 'completed', 'p_attempt', 'allpass_conditional', 'allpass_conservative', 'pass_at_k', 'cr', 'jcr', 'pcr', 'pcr_median', 'atfr', 'pareto_front'],
    rows: r.reliability.configurations.map((c) => [
      c.configuration,
      c.tasks,
      c.kMin === c.kMax ? `${c.kMin}` : `${c.kMin}-${c.kMax}`,
      c.planned,
      c.completed,
      r3(c.pAttempt),
      r3(c.allPassConditional),
      r3(c.allPassConservative),
      r3(c.passAtK),
      r3(c.cr),
      r3(c.jcr),
      r3(c.pcr),
      r3(c.pcrMedian),
      r3(c.atfr),
      c.front,
    ]),
  };
}

export function attemptsTable(r: CorpusReport): Table {
  return {
    name: 'attempts',
    title: 'Attempts of repeated tasks',
    headers: ['configuration', 'task', 'run', 'outcome', 'patch_lines', 'edit_volume', 'pcr', 'tool_calls', 'tool_failures'],
    rows: r.reliability.attempts.map((a) => [a.configuration, a.task, a.run, a.outcome, a.patchLines, a.editVolume, r3(a.pcr), a.toolCalls, a.toolFailures]),
  };
}

/** `in-folder` (a PTA of the task's passing trajectories in PATH), or an external PTA's source and version. */
function referenceCell(ref: ScoredAgainst | undefined): Cell {
  if (ref === undefined) return null;
  return ref.kind === 'in-folder' ? 'in-folder' : `${ref.source} v${ref.version}`;
}

export function trajectoriesTable(r: CorpusReport): Table {
  return {
    name: 'trajectories',
    title: 'Trajectories',
    headers: [
      'task',
      'model',
      'run',
      'outcome',
      'steps',
      'references',
      'reference',
      'holds_run',
      'unscored',
      'score',
      'struct',
      'cov',
      'coh',
      'temp',
      'tier',
      'lucky',
      'wasted_steps',
      'wasted_tokens',
      'signals',
      'stages',
      'id',
    ],
    rows: r.trajectories.map((t) => [
      t.task ?? UNNAMED_TASK,
      t.model ?? '(not named)',
      t.run,
      t.outcome,
      t.steps,
      t.references ?? null,
      referenceCell(t.reference),
      t.reference?.kind === 'external' ? (t.reference.holdsRun ? 'yes' : 'no') : null,
      t.unscored ?? null,
      r1(t.score?.total),
      r1(t.score?.struct),
      r1(t.score?.cov),
      r3(t.score?.coh),
      r3(t.score?.temp),
      t.tier ?? null,
      t.lucky ?? null,
      t.wastedSteps,
      t.wastedTokens,
      t.signals.join(' '),
      t.stages ?? null,
      t.id,
    ]),
  };
}

/** Every table, in report order. */
export function allTables(r: CorpusReport): Table[] {
  return [tasksTable(r), modelsTable(r), separationTable(r), luckyTable(r), reliabilityTable(r), attemptsTable(r), trajectoriesTable(r)];
}
