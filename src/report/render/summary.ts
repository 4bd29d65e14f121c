/** The readable terminal summary and the Markdown report. */
import { plural } from '../../core/plural.js';
import { MIN_RESAMPLE_UNITS } from '../../core/stats/bootstrap.js';
import type { Interval } from '../../core/stats/interval.js';
import { MODELS_ORDER, passTierShares } from '../models.js';
import { frontNotes, rankNotes } from '../rank-notes.js';
import { rankTaskWarnings } from '../rank-tasks.js';
import { modelLabel } from '../identity.js';
import { forecastInSampleCaution, forecastInSampleLine } from '../forecast-in-sample.js';
import { groupKindsText, referenceKindMixLines, selectionKindMixLines } from '../reference-mix.js';
import type { CorpusReport, ModelRow, ReferenceKind, ReferenceSplit, SelectionRow, SeparationRow } from '../types.js';
import { markdownTable, markdownText, textTable } from './format-table.js';
import { allTables } from './all-tables.js';
import { rankCell, type Table } from './table-cells.js';
import { calibrationTable, luckyTable, modelsTableName, reliabilityDiagramTable, separationTable, sourceSeparationTable, tasksTable } from './tables.js';
import { headToHeadTable } from './head-to-head-table.js';
import { reliabilityDisplay } from './reliability-display.js';
import { withInterval } from './with-interval.js';

const f3 = (x: number | null | undefined) => (x === null || x === undefined ? '-' : x.toFixed(3));
export { withInterval };

/** An AUROC with its interval, or "undefined" where there is none (no passing or no failing run to order): not a bare "-". */
const aurocText = (x: number | null, iv: Interval | null): string => (x === null ? 'undefined' : withInterval(x, iv));

/** The source-only AUROC with its interval (it printed bare; audit28); with one source 0.5 by construction, said so. */
function sourceOnlyText(s: SeparationRow): string {
  const x = s.pooled.sourceOnly;
  if (x === null) return 'undefined';
  return s.withinSource.sources.length === 1 ? `${f3(x)} (one source: by construction)` : aurocText(x, s.pooled.sourceOnlyInterval);
}

/** One line per score run through section 16: the within-source mean first, then within task, then pooled beside source-only. */
export function separationLine(s: SeparationRow): string {
  const ws = s.withinSource;
  const wt = s.withinTask;
  const name = s.signal === 'total' ? 'composite score' : s.signal;
  return (
    `AUROC of the ${name}${s.reference === 'all' ? '' : ` (scored ${s.reference})`}: ` +
    (ws.mean === null
      ? `within source: ${ws.sources.length === 1 ? `the one source has fewer than ${ws.minPerClass} passing or ${ws.minPerClass} failing runs` : `none of the ${ws.sources.length} sources has >= ${ws.minPerClass} passing and ${ws.minPerClass} failing runs`}; `
      : `within source ${withInterval(ws.mean, ws.interval)} (mean over ${ws.counted} of ${ws.sources.length} sources with >= ${ws.minPerClass} passing and failing runs); `) +
    `within task ${aurocText(wt.auroc, wt.interval)} (${plural(wt.pairs, 'pass/fail pair')} of one source and task, ${plural(wt.tasks, 'task')}); ` +
    `pooled ${aurocText(s.pooled.auroc, s.pooled.interval)} on ${s.nPass} passing / ${s.nFail} failing, beside ${sourceOnlyText(s)} for the source alone ` +
    `(the pooled figure also rewards telling sources apart${s.pooled.auroc === null && (s.nPass === 0 || s.nFail === 0) ? '; an AUROC needs passing and failing runs' : ''})`
  );
}

/** pPass's best-of-N on runs the forecaster was trained on: said beside its figures, not only in a warning lines away. */
export function inSampleMark(s: SelectionRow): string {
  if (s.inSampleRuns === undefined || s.inSampleRuns === 0) return '';
  if (s.inSampleRuns === null) return ' (in-sample or not cannot be checked: the forecaster lists no training runs)';
  return ` (in-sample: the forecaster was trained on ${s.inSampleRuns} of these ${s.runs} runs, so the figures are optimistic)`;
}

/**
 * The best-of-N line of one score over every source (`reference`: of the runs scored against that kind alone). With
 * `rows` (the score's rows per source beside it), a figure pooled over the groups of several sources names them and
 * gives the one with the most informative groups alone: the pooled rates mix sources' groups (audit23).
 */
export function selectionLine(s: SelectionRow, reference?: ReferenceKind, rows: readonly SelectionRow[] = []): string {
  const name = `best-of-N by ${s.score === 'total' ? 'the composite score' : s.score}${reference ? ` (scored ${reference})` : ''}`;
  if (s.groups === 0) return `${name}: no source ran a task twice with a known outcome`;
  // pPass reads no PTA (core/forecast/features.ts): only the composite's groups are told apart by kind.
  const kinds = s.score === 'total' ? groupKindsText(s) : null;
  return (
    `${name}${inSampleMark(s)} over ${plural(s.groups, 'group')} (one source, one task, >= 2 runs; ${s.runs} runs${kinds ? `; scored ${kinds}` : ''}): ` +
    `top pick resolves ${withInterval(s.top.rate, s.top.interval)}, random ${withInterval(s.random.rate, s.random.interval)}, ` +
    `oracle ${withInterval(s.oracle.rate, s.oracle.interval)}; gap closed ${withInterval(s.gapClosed, s.gapInterval)} (n = ${plural(s.informative, 'group')} with a pass and a fail)` +
    pooledSelectionText(s, rows, reference)
  );
}

/** `; pooled over N sources ...` with the source of the most informative groups alone, or '' for one source. */
function pooledSelectionText(all: SelectionRow, rows: readonly SelectionRow[], reference?: ReferenceKind): string {
  const own = rows.filter((x) => x.source !== 'all' && x.score === all.score && x.groups > 0);
  if (own.length < 2) return '';
  const top = [...own].sort((a, b) => b.informative - a.informative || b.groups - a.groups || a.source.localeCompare(b.source))[0]!;
  return (
    `; pooled over ${own.length} sources, each alone in selection${reference ? `-${reference}` : ''}.csv (the most informative, ${top.source}: ` +
    `${plural(top.groups, 'group')}, gap closed ${withInterval(top.gapClosed, top.gapInterval)}, n = ${top.informative})`
  );
}

/** The report's headline facts (inputs, outcomes, what was scored, separation and selection), one line each. */
export function headline(r: CorpusReport): string[] {
  const c = r.counts;
  const reasons = new Map<string, number>();
  for (const s of r.inputs.skipped) {
    const key = s.kind === 'metadata' ? 'evaluation or task metadata' : s.kind === 'not_a_log' ? 'JSON in no supported log format' : s.kind === 'duplicate' ? 'the same file as another' : 'unreadable';
    reasons.set(key, (reasons.get(key) ?? 0) + 1);
  }
  const skipped = [...reasons].map(([k, n]) => `${n} ${k}`).join(', ');
  const inFolderTasks = [...new Set(r.trajectories.filter((t) => t.reference?.kind === 'in-folder').map((t) => t.task))];
  const folders = r.inputs.referenceFolders;
  const external = r.tasks.filter((t) => t.external);
  const inFolder = c.scored - c.scoredExternal - c.scoredReferenceFree;
  const unscored = [
    `${c.unscoredNoSteps} without steps`,
    ...(c.unscoredNoReference > 0 ? [`${c.unscoredNoReference} without a reference`] : []),
    ...(c.unscoredNoTask > 0 ? [`${c.unscoredNoTask} naming no task`] : []),
  ].join(', ');
  const total = r.separation.find((s) => s.signal === 'total' && s.reference === 'all');
  const inSample = r.inputs.forecastInSample !== undefined ? forecastInSampleLine(r.inputs.forecastInSample) : null;
  return [
    `${plural(c.trajectories, 'trajectory', 'trajectories')} from ${plural(r.inputs.files, 'file')} (${r.inputs.skippedFiles} skipped${skipped ? `: ${skipped}` : ''}), ${plural(r.tasks.length, 'task')}, ${plural(r.models.length, 'source')} (agent + model)`,
    `outcomes: ${c.pass} pass, ${c.fail} fail, ${c.censored} censored, ${c.unknown} unknown`,
    `scored: ${c.scored} of ${c.trajectories} (${inFolder} against an in-folder PTA, ${c.scoredExternal} against an external PTA, ${c.scoredReferenceFree} reference-free); not scored: ${unscored}`,
    `tasks scored against an in-folder PTA (>= 3 passing runs, so each is scored against 2 others): ${inFolderTasks.length ? inFolderTasks.join(', ') : 'none'}`,
    ...(folders.length
      ? [
          `external references (${folders.map((f) => (f.source === f.dir ? f.dir : `${f.source}: ${f.dir}`)).join('; ')}) used for: ${external.length ? external.map((t) => t.task).join(', ') : 'no task'}`,
        ]
      : []),
    ...(total ? [separationLine(total)] : []),
    ...referenceKindMixLines(r.referenceKindMix, r.statistics.minPerClass),
    ...r.selection.filter((s) => s.source === 'all').map((s) => selectionLine(s, undefined, r.selection)),
    ...selectionKindMixLines(r.selection),
    ...(inSample !== null ? [inSample] : []),
    ...(r.inputs.forecastModel === 'end' ? ["pPass: by the forecast file's end-of-run model (--rank-model end), each run read as finished"] : []),
  ];
}

export function chiLine(r: CorpusReport): string {
  const c = r.luckyChiSquare;
  if (c.statistic === null) return `χ² model × Lucky category: not computed (${c.note ?? 'too few data'})`;
  return `χ² model × Lucky category: χ² = ${c.statistic.toFixed(3)}, dof = ${c.dof}, p = ${c.p!.toPrecision(3)}${c.note ? ` (${c.note})` : ''}`;
}

/**
 * The tier shares of every scored passing run, pooled over sources: labelled so (a pooled share is not a source's
 * figure; a source with many runs weighs in it as much as its runs), with where each source's own shares and n are.
 */
export function passTiers(r: CorpusReport): string {
  const passing = r.trajectories.filter((t) => t.outcome === 'pass' && t.tier);
  const n = passing.length;
  const sources = new Set(passing.map((t) => t.source)).size;
  const shares = passTierShares(passing, r.statistics.level);
  const share = (tier: 'Ideal' | 'Solid' | 'Lucky') => (shares ? percentWithInterval(shares[tier].share, shares[tier].interval) : '-');
  return (
    `scored passing trajectories, pooled over ${plural(sources, 'source')}: ${n} (Ideal ${share('Ideal')}, Solid ${share('Solid')}, Lucky ${share('Lucky')}; ` +
    `Wilson ${Math.round(100 * r.statistics.level)} % with the tasks' design effect); per source: the models table (scored passing, ideal, solid, lucky)`
  );
}

/** `58.1 % [40.8, 73.6]`: a share in percent with its interval (`[-]` without one). */
const percentWithInterval = (x: number, iv: Interval | null) => `${(100 * x).toFixed(1)} % ${iv ? `[${(100 * iv.lo).toFixed(1)}, ${(100 * iv.hi).toFixed(1)}]` : '[-]'}`;

const section = (t: Table, cols?: string[]) => `${t.title}\n${textTable(t, cols)}`;

const cell = (x: number | string | null): string => (x === null ? '-' : String(x));

/** The terminal's models table: each figure with its interval in one cell, n beside it. */
export function modelsDisplay(r: CorpusReport, models: readonly ModelRow[] = r.models, suffix = ''): Table {
  const rate = (m: ModelRow) => (m.passRate === null ? null : percentWithInterval(m.passRate, m.passRateInterval));
  // A pass tier's share with its interval, as the pass rate: 2 passing runs both Solid are no "1" to read alone.
  const share = (m: ModelRow, tier: 'Ideal' | 'Solid' | 'Lucky') => (m.tierShares === null ? null : percentWithInterval(m.tierShares[tier], m.tierShareIntervals?.[tier] ?? null));
  const quality = (m: ModelRow) =>
    m.meanQuality === null ? null : `${m.meanQuality.toFixed(1)} ${m.meanQualityInterval ? `[${m.meanQualityInterval.lo.toFixed(1)}, ${m.meanQualityInterval.hi.toFixed(1)}]` : '[-]'}`;
  const s = r.statistics;
  return {
    name: `models${suffix ? `-${suffix}` : ''}`,
    title:
      `Models (agent + model)${suffix ? `, scored ${suffix}` : ''}: pass rate (Wilson ${Math.round(100 * s.level)} %) over the evaluated runs, mean quality (bootstrap, seed ${s.seed}) over the scored runs; ` +
      `rank = 1 + sources clearly above, "=" ties with an overlapping interval, none below ${s.minRuns} runs (--min-runs)`,
    headers: [
      'agent',
      'model',
      'evaluated',
      'pass rate [95% CI]',
      'rank',
      'scored',
      'quality [95% CI]',
      'rank ',
      'shift',
      'scored passing',
      'ideal [95% CI]',
      'solid [95% CI]',
      'lucky [95% CI]',
      'wasted steps',
      'wasted tokens',
    ],
    rows: models.map((m) => [
      m.agent,
      modelLabel(m),
      m.evaluated,
      rate(m),
      cell(rankCell(m.rankPass, m.rankPassTied)),
      m.scored,
      quality(m),
      cell(rankCell(m.rankQuality, m.rankQualityTied)),
      m.rankShift,
      m.scoredPassing,
      share(m, 'Ideal'),
      share(m, 'Solid'),
      share(m, 'Lucky'),
      m.wastedSteps,
      m.wastedTokens,
    ]),
  };
}

/**
 * What a reader of the models table must know beside it, not only in the notes at the end: ranks of sources that ran
 * different tasks, and why no rank is given among one source.
 */
export function modelsCautions(r: CorpusReport, split?: ReferenceSplit): string[] {
  const models = split?.models ?? r.models;
  return [MODELS_ORDER, ...rankTaskWarnings(models), ...rankNotes(models, r.statistics.minRuns)];
}

/** The in-sample caution under a table with pPass figures (none without a pPass, or with none in-sample). */
function pPassCautions(r: CorpusReport, rows: readonly SeparationRow[] = r.separation): string[] {
  const line = rows.some((s) => s.signal === 'pPass') ? forecastInSampleCaution(r.inputs.forecastInSample) : null;
  return line === null ? [] : [line];
}

/** The tables whose pPass figures get the in-sample caution. */
const PPASS_TABLES = new Set(['separation', 'separation-by-source', 'calibration', 'reliability-diagram']);

/** The cautions of table `name`: a models table's (the main one, or one `--by-reference` kind's), pPass's in-sample caution. */
export function tableCautions(r: CorpusReport, name: string): string[] {
  if (PPASS_TABLES.has(name)) return pPassCautions(r);
  if (name === modelsTableName()) return modelsCautions(r);
  if (name === 'reliability') return frontNotes(r.reliability.configurations);
  const split = (r.byReference ?? []).find((b) => name === modelsTableName(b.reference));
  return split === undefined ? [] : modelsCautions(r, split);
}

/** The terminal summary printed on stdout. */
export function terminalSummary(r: CorpusReport): string {
  const perSource = sourceSeparationTable(
    r,
    r.separation.filter((s) => s.signal === 'total' || s.signal === 'pPass'),
  );
  return [
    `steplens report`,
    ...headline(r),
    passTiers(r),
    '',
    section(tasksTable(r)),
    '',
    section(modelsDisplay(r)),
    ...modelsCautions(r),
    ...(r.headToHead.length > 0 ? ['', section(headToHeadTable(r))] : []),
    '',
    section(separationTable(r), [
      'signal',
      'n_pass',
      'n_fail',
      'within_source',
      'within_source_lo',
      'within_source_hi',
      'sources_counted',
      'within_task',
      'within_task_lo',
      'within_task_hi',
      'task_pairs',
      'pooled',
      'pooled_lo',
      'pooled_hi',
      'source_only',
      'source_only_lo',
      'source_only_hi',
      'pooled_ks_p',
    ]),
    ...pPassCautions(r),
    '',
    section(perSource),
    ...pPassCautions(r),
    ...(r.calibration !== undefined ? ['', section(calibrationTable(r)), ...pPassCautions(r), '', section(reliabilityDiagramTable(r)), ...pPassCautions(r)] : []),
    ...(r.byReference ?? []).flatMap((b) => [
      '',
      section(modelsDisplay(r, b.models, b.reference)),
      ...modelsCautions(r, b),
      '',
      ...b.separation.filter((s) => s.signal === 'total').map(separationLine),
      ...b.selection.filter((s) => s.source === 'all').map((s) => selectionLine(s, b.reference, b.selection)),
    ]),
    '',
    chiLine(r),
    '',
    r.reliability.configurations.length ? section(reliabilityDisplay(r)) : 'Multi-trial reliability: no configuration ran a task more than once',
    ...frontNotes(r.reliability.configurations),
    '',
  ].join('\n');
}

/** How to read the report: the notes closing report.md and report.html. */
export const REPORT_NOTES: readonly string[] = [
  'Passing trajectories are scored leave-one-out against a PTA of the other passing trajectories of their task, the others against one of those PTAs in turn (each meets n − 1 references, taken in path order), where every run of the task has one (3 passing runs). A PTA needs at least 2 references. A trajectory without one is scored reference-free against the prior pooled from the bundled references, as `score` and the server do (column reference_kind; struct and cov are left out there, so --by-reference splits the tables by it, and a source whose passing and failing runs met different kinds is named in a warning).',
  "Separation (docs/method.md section 16): the headline is the mean over sources (agent + model) of each source's own AUROC (sources with >= 3 passing and 3 failing runs); within task counts pass/fail pairs of one source and task; the pooled AUROC stands beside source_only, the AUROC of knowing only each run's source, because it also rewards telling sources apart.",
  `Intervals are 95 %: Wilson for pass rates, Lucky rates and p_attempt, seeded percentile bootstrap (1,000 draws, --seed) for mean quality, AUROCs and best-of-N; where a source ran a task more than once the task is the unit (Wilson at the effective n of the tasks' design effect, mean quality resampling tasks); the multi-trial metrics always take the task as the unit (Wilson over tasks for AllPass@k, pass@k and JCR, Wilson at the tasks' design effect for p_attempt, CR and ATFR, tasks resampled for PCR); none ([-], null in report.json) below ${MIN_RESAMPLE_UNITS} resampled runs, tasks or groups (a resample of 2 or 3 collapses onto the estimate). Two sources whose intervals overlap share a rank ("="); a rank needs 2 sources with --min-runs runs.`,
  "KS (pooled_ks_d, pooled_ks_p; ksD, ksP in report.json) compares every source's passing and failing runs pooled, as the pooled AUROC does, so it also rewards telling sources apart; its p-values are exact where n_pass × n_fail is at most 10,000 (the merge orders counted; conservative with tied scores), else asymptotic (Kolmogorov distribution with Stephens' small-sample correction, too small for small samples).",
  "Censored = interrupted by infrastructure (e.g. provider time-out in the log's exit status); unknown = no evaluation found.",
  'ATFR counts malformed arguments, paths not found, shell syntax errors, commands not found and time-outs; PCR = 1 − |final patch| / cumulative edit volume (editor edits and heredoc writes).',
];

/** The notes for this report: {@link REPORT_NOTES}, plus how external references are used when some were given. */
export function reportNotes(r: CorpusReport): string[] {
  const ranks = rankNotes(r.models, r.statistics.minRuns);
  if (r.inputs.referenceFolders.length === 0) return [...REPORT_NOTES, ...ranks];
  return [
    REPORT_NOTES[0]!,
    "A trajectory without such a PTA is scored against its task's stored PTA from the reference folders (first folder holding the task wins; it needs 2 references): column reference names it with its version, `in-folder` otherwise.",
    ...REPORT_NOTES.slice(1),
    ...ranks,
  ];
}

/**
 * The Markdown report (`report.md`), linking the SVG charts written next to it. Every line of text goes through
 * `markdownText` (tables through `markdownTable`): task, source and file names are a tenant's, and a renderer that
 * keeps raw HTML would run a tag in one.
 */
export function markdownReport(r: CorpusReport, charts: readonly string[] = []): string {
  // The tables people read (as report.html's): the best-of-N ones compact, the CSVs keep one figure a column.
  const tables = allTables(r, { display: true });
  const md = markdownText;
  const out = ['# steplens corpus report', '', ...headline(r).map((l) => `- ${md(l)}`), `- ${md(passTiers(r))}`, '', ...charts.map((c) => `![${c}](${c})`), ''];
  for (const t of tables) {
    out.push(`## ${md(t.title)}`, '', ...(t.legend !== undefined ? [md(t.legend), ''] : []), markdownTable(t), '');
    if (t.name === luckyTable(r).name) out.push(md(chiLine(r)), '');
    out.push(...tableCautions(r, t.name).flatMap((c) => [md(c), '']));
  }
  out.push('## Notes', '', ...r.warnings.map((w) => `- **Caution:** ${md(w)}`), ...reportNotes(r).map((n) => `- ${md(n)}`), '');
  return out.join('\n');
}
