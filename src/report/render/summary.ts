/** The readable terminal summary and the Markdown report. */
import type { CorpusReport } from '../types.js';
import { markdownTable, textTable } from './format-table.js';
import { allTables, luckyTable, modelsTable, reliabilityTable, separationTable, tasksTable, type Table } from './tables.js';

const pct = (x: number | null) => (x === null ? '-' : `${(100 * x).toFixed(1)} %`);

/** The report's headline facts (inputs, outcomes, what was scored), one line each. */
export function headline(r: CorpusReport): string[] {
  const c = r.counts;
  const reasons = new Map<string, number>();
  for (const s of r.inputs.skipped) {
    const key = s.kind === 'metadata' ? 'evaluation or task metadata' : s.kind === 'not_a_log' ? 'JSON in no supported log format' : 'unreadable';
    reasons.set(key, (reasons.get(key) ?? 0) + 1);
  }
  const skipped = [...reasons].map(([k, n]) => `${n} ${k}`).join(', ');
  const withRefs = r.tasks.filter((t) => t.references >= 2);
  const folders = r.inputs.referenceFolders;
  const external = r.tasks.filter((t) => t.external);
  const scored = folders.length ? `${c.scored} (${c.scored - c.scoredExternal} in-folder, ${c.scoredExternal} against an external PTA)` : `${c.scored}`;
  const noRef = folders.length ? 'without enough references here or in the reference folders' : 'without enough references (a PTA needs 2 other passing trajectories)';
  return [
    `${c.trajectories} trajectories from ${r.inputs.files} files (${r.inputs.skippedFiles} skipped${skipped ? `: ${skipped}` : ''}), ${r.tasks.length} tasks`,
    `outcomes: ${c.pass} pass, ${c.fail} fail, ${c.censored} censored, ${c.unknown} unknown`,
    `scored: ${scored}; not scored: ${c.unscoredNoReference} ${noRef}, ${c.unscoredNoSteps} without steps, ${c.unscoredNoTask} naming no task`,
    `tasks with a reference (>= 2 passing): ${withRefs.length ? withRefs.map((t) => t.task).join(', ') : 'none'}`,
    ...(folders.length
      ? [
          `external references (${folders.map((f) => (f.source === f.dir ? f.dir : `${f.source}: ${f.dir}`)).join('; ')}) used for: ${external.length ? external.map((t) => t.task).join(', ') : 'no task'}`,
        ]
      : []),
  ];
}

export function chiLine(r: CorpusReport): string {
  const c = r.luckyChiSquare;
  if (c.statistic === null) return `χ² model × Lucky category: not computed (${c.note ?? 'too few data'})`;
  return `χ² model × Lucky category: χ² = ${c.statistic.toFixed(3)}, dof = ${c.dof}, p = ${c.p!.toPrecision(3)}${c.note ? ` (${c.note})` : ''}`;
}

export function passTiers(r: CorpusReport): string {
  const passing = r.trajectories.filter((t) => t.outcome === 'pass' && t.tier);
  const n = passing.length;
  const share = (tier: string) => (n ? passing.filter((t) => t.tier === tier).length / n : null);
  return `scored passing trajectories: ${n} (Ideal ${pct(share('Ideal'))}, Solid ${pct(share('Solid'))}, Lucky ${pct(share('Lucky'))})`;
}

const section = (t: Table, cols?: string[]) => `${t.title}\n${textTable(t, cols)}`;

/** The terminal summary printed on stdout. */
export function terminalSummary(r: CorpusReport): string {
  return [
    `steplens report`,
    ...headline(r),
    passTiers(r),
    '',
    section(tasksTable(r)),
    '',
    section(modelsTable(r), ['model', 'evaluated', 'pass_rate', 'rank_pass', 'mean_quality', 'rank_quality', 'rank_shift', 'ideal', 'solid', 'lucky', 'wasted_steps', 'wasted_tokens']),
    '',
    section(separationTable(r)),
    chiLine(r),
    '',
    r.reliability.configurations.length
      ? section(reliabilityTable(r), ['configuration', 'tasks', 'k', 'planned', 'p_attempt', 'allpass_conditional', 'allpass_conservative', 'pass_at_k', 'cr', 'jcr', 'pcr', 'atfr', 'pareto_front'])
      : 'Multi-trial reliability: no configuration ran a task more than once',
    '',
  ].join('\n');
}

/** How to read the report: the notes closing report.md and report.html. */
export const REPORT_NOTES: readonly string[] = [
  'Passing trajectories are scored leave-one-out against a PTA of the other passing trajectories of their task; others against all passing ones. A PTA needs at least 2 references.',
  "KS p-values are asymptotic (Kolmogorov distribution with Stephens' small-sample correction).",
  "Censored = interrupted by infrastructure (e.g. provider time-out in the log's exit status); unknown = no evaluation found.",
  'ATFR counts malformed arguments, paths not found, shell syntax errors, commands not found and time-outs; PCR = 1 − |final patch| / cumulative edit volume (editor edits and heredoc writes).',
];

/** The notes for this report: {@link REPORT_NOTES}, plus how external references are used when some were given. */
export function reportNotes(r: CorpusReport): string[] {
  if (r.inputs.referenceFolders.length === 0) return [...REPORT_NOTES];
  return [
    REPORT_NOTES[0]!,
    "A trajectory without such a PTA is scored against its task's stored PTA from the reference folders (first folder holding the task wins; it needs 2 references): column reference names it with its version, `in-folder` otherwise.",
    ...REPORT_NOTES.slice(1),
  ];
}

/** The Markdown report (`report.md`), linking the SVG charts written next to it. */
export function markdownReport(r: CorpusReport, charts: readonly string[] = []): string {
  const tables = allTables(r);
  const out = ['# steplens corpus report', '', ...headline(r).map((l) => `- ${l}`), `- ${passTiers(r)}`, '', ...charts.map((c) => `![${c}](${c})`), ''];
  for (const t of tables) {
    out.push(`## ${t.title}`, '', markdownTable(t), '');
    if (t.name === luckyTable(r).name) out.push(chiLine(r), '');
  }
  out.push('## Notes', '', ...r.warnings.map((w) => `- **Caution:** ${w}`), ...reportNotes(r).map((n) => `- ${n}`), '');
  return out.join('\n');
}
