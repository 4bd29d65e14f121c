/** The report's tables of single runs: multi-trial reliability per configuration, the attempts behind it, every trajectory. */
import { UNNAMED_TASK } from '../identity.js';
import type { CorpusReport, ScoredAgainst } from '../types.js';
import { bounded, r1, r3, withBounds, type Cell, type Table } from './table-cells.js';

export function reliabilityTable(r: CorpusReport): Table {
  return {
    name: 'reliability',
    title: 'Multi-trial reliability (repeated tasks only), each metric with its 95 % interval over tasks',
    headers: [
      'configuration',
      'tasks',
      'k',
      'planned',
      'completed',
      'passes',
      ...withBounds('p_attempt'),
      ...withBounds('allpass_conditional'),
      ...withBounds('allpass_conservative'),
      ...withBounds('pass_at_k'),
      ...withBounds('cr'),
      ...withBounds('jcr'),
      // No pcr_median: a median over attempts has no interval here (attempts of one task are not independent, and a
      // bootstrap of a median over tied churns collapses); it printed bare beside intervals (audit28). report.json keeps it.
      ...withBounds('pcr'),
      ...withBounds('atfr'),
      'pareto_front',
    ],
    rows: r.reliability.configurations.map((c) => [
      c.configuration,
      c.tasks,
      c.kMin === c.kMax ? `${c.kMin}` : `${c.kMin}-${c.kMax}`,
      c.planned,
      c.completed,
      c.passes,
      ...bounded(c.pAttempt, c.pAttemptInterval),
      ...bounded(c.allPassConditional, c.allPassConditionalInterval),
      ...bounded(c.allPassConservative, c.allPassConservativeInterval),
      ...bounded(c.passAtK, c.passAtKInterval),
      ...bounded(c.cr, c.crInterval),
      ...bounded(c.jcr, c.jcrInterval),
      ...bounded(c.pcr, c.pcrInterval),
      ...bounded(c.atfr, c.atfrInterval),
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

/** `in-folder` (a PTA of the task's passing trajectories in PATH), an external PTA's source and version, or `prior`. */
function referenceCell(ref: ScoredAgainst | undefined): Cell {
  if (ref === undefined) return null;
  return ref.kind === 'in-folder' ? 'in-folder' : ref.kind === 'external' ? `${ref.source} v${ref.version}` : `prior (${ref.priorReferences} refs)`;
}

export function trajectoriesTable(r: CorpusReport): Table {
  return {
    name: 'trajectories',
    title: 'Trajectories',
    headers: [
      'task',
      'agent',
      'model',
      'run',
      'outcome',
      'steps',
      'reference_kind',
      'references',
      'reference',
      'holds_run',
      'unscored',
      'score',
      'struct',
      'cov',
      'coh',
      'temp',
      'p_pass',
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
      t.agent,
      t.model ?? '(not named)',
      t.run,
      t.outcome,
      t.steps,
      t.reference?.kind ?? null,
      t.references ?? null,
      referenceCell(t.reference),
      t.reference?.kind === 'external' ? (t.reference.holdsRun ? 'yes' : 'no') : null,
      t.unscored ?? null,
      r1(t.score?.total),
      r1(t.score?.struct),
      r1(t.score?.cov),
      r3(t.score?.coh),
      r3(t.score?.temp),
      r3(t.pPass),
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
