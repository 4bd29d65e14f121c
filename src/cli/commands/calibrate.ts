/**
 * `steplens calibrate [--outcomes FILE] [--max-false-stop R] [--max-false-warn R] [--out FILE] [--json] PATH...`:
 * chooses early-stop thresholds from finished runs with known outcomes.
 * Runs are scored reference-free (temporal prior pooled from the bundled
 * example references), the same way a session without a PTA is scored.
 */
import { writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { SteplensError } from '../../errors.js';
import { calibrate, CALIBRATION_KINDS, type Calibration, type CalibrationKind, type CalibrationRun, type LevelChoice, type ThresholdRow } from '../../core/calibrate/index.js';
import { resolvePolicy } from '../../core/policy.js';
import { createScorer } from '../../core/scorer.js';
import type { Reference } from '../../core/scorer-api.js';
import { nodeReportFs } from '../../report/node-fs.js';
import { resolveOutcome } from '../../report/resolve-outcome.js';
import type { LoadedTrajectory } from '../../report/types.js';
import { defaultAnalyzers } from '../../syntax/index.js';
import type { Command } from '../command.js';
import { CORPUS_OPTIONS, readCorpusInput } from '../corpus-input.js';
import { chooseReference } from '../references.js';
import { renderTable } from '../table.js';

const MEANING: Record<CalibrationKind, string> = {
  blindRetry: 'retries in one blind-retry episode',
  regressionLoop: 'failed edit → verify cycles on one file',
  cycle: 'repetitions in a row of one block of states',
  explorationStreak: 'exploration steps in a row',
  lowScore: 'running score floor (after minSteps steps)',
};

function rate(value: string | undefined, flag: string, fallback: number): number {
  if (value === undefined) return fallback;
  const x = Number(value);
  if (value.trim() === '' || !Number.isFinite(x) || x < 0 || x > 1) throw new SteplensError('usage', `${flag} must be a rate between 0 and 1, got '${value}'`);
  return x;
}

function runOf(t: LoadedTrajectory, passed: boolean, reference: Reference): CalibrationRun {
  const scorer = createScorer({ reference, analyzers: defaultAnalyzers() });
  const totals = t.steps.map((s) => scorer.push(s).score.total);
  return { states: scorer.states(), totals, passed };
}

const pct = (r: number | null): string => (r === null ? '-' : `${(100 * r).toFixed(1)}%`);
const num = (x: number | null): string => (x === null ? '-' : x.toFixed(1));

function levelText(name: string, c: LevelChoice): string {
  return c.threshold !== null ? `${name} ${c.threshold}` : `${name} none (${c.reason?.replace(/_/g, ' ')}: ${c.note ?? ''})`;
}

function kindText(kind: CalibrationKind, c: Calibration): string {
  const t = c.kinds[kind];
  const mark = (r: ThresholdRow) => [r.threshold === t.warn.threshold ? 'warn' : '', r.threshold === t.stop.threshold ? 'stop' : ''].filter(Boolean).join('+');
  const rows = t.rows.map((r) => [
    r.threshold, `${r.passingStopped} (${pct(r.passingRate)})`, `${r.failingStopped} (${pct(r.failingRate)})`,
    num(r.meanStepsSaved), num(r.meanStepsSavedWhenStopped), mark(r),
  ]);
  const header = ['threshold', 'passing stopped', 'failing stopped', 'saved/failing run', 'saved/stopped run', 'pick'];
  return `${kind}: ${MEANING[kind]}\n${renderTable(header, rows)}recommended: ${levelText('warn', t.warn)}; ${levelText('stop', t.stop)}\n`;
}

function humanText(c: Calibration, left: number, priorRefs: number): string {
  const b = c.baseline;
  const head = `${c.runs.passing + c.runs.failing} runs with a known outcome (${c.runs.passing} passing, ${c.runs.failing} failing); ${left} without one left out\n` +
    `scored reference-free: temporal prior pooled from ${priorRefs} bundled reference trajectories\n` +
    `bounds: stop when at most ${pct(c.kinds.blindRetry.stop.bound)} of passing runs are stopped, warn at most ${pct(c.kinds.blindRetry.warn.bound)}\n\n`;
  const naive = `naive rule "stop at occurrence #${b.n} of one exact action" (anything in between): stops ${b.passingStopped} passing (${pct(b.passingRate)}), ${b.failingStopped} failing (${pct(b.failingRate)})\n\n`;
  return head + CALIBRATION_KINDS.map((k) => kindText(k, c)).join('\n') + '\n' + naive +
    `recommended policy (a session's start.policy; --out FILE writes it):\n${JSON.stringify(c.policy, null, 2)}\n`;
}

const command: Command = {
  name: 'calibrate',
  summary: 'choose early-stop thresholds from runs with known outcomes',
  usage:
    'usage: steplens calibrate [--outcomes FILE] [--max-false-stop R] [--max-false-warn R] [--out FILE] [--json] PATH...\n' +
    '  PATH and outcomes: as for `steplens report`; only runs with a pass/fail outcome count\n' +
    '  --max-false-stop R  largest share of passing runs a stop level may stop (default 0.05)\n' +
    '  --max-false-warn R  the same for a warn level (default 0.25)\n' +
    '  --out FILE writes the recommended policy JSON (a session\'s start.policy); --json prints the whole calibration',
  async run(args, io) {
    const { values, positionals } = parseArgs({
      args,
      allowPositionals: true,
      options: {
        ...CORPUS_OPTIONS,
        out: { type: 'string' },
        json: { type: 'boolean', default: false },
        'max-false-stop': { type: 'string' },
        'max-false-warn': { type: 'string' },
      },
    });
    const { found, table } = readCorpusInput(positionals, values, io.cwd, 'calibrate');
    const maxFalseStop = rate(values['max-false-stop'], '--max-false-stop', 0.05);
    const maxFalseWarn = rate(values['max-false-warn'], '--max-false-warn', 0.25);
    const ctx = { fs: nodeReportFs, cache: new Map(), ...(table ? { table } : {}) };
    const known = found.trajectories
      .map((t) => ({ t, outcome: resolveOutcome(ctx, t).outcome }))
      .filter((x) => (x.outcome === 'pass' || x.outcome === 'fail') && x.t.steps.length > 0);
    if (known.length === 0) throw new SteplensError('bad_input', `none of the ${found.trajectories.length} trajectories has a known pass/fail outcome (give --outcomes FILE)`);
    const reference = await chooseReference(undefined);
    const runs = known.map((x) => runOf(x.t, x.outcome === 'pass', reference));
    const result = calibrate(runs, { maxFalseStop, maxFalseWarn });
    if (!result.ok) throw new SteplensError('usage', result.error);
    const c = result.value;
    const check = resolvePolicy(c.policy);
    if (!check.ok) throw new Error(`recommended policy does not validate: ${check.error}`);
    if (values.out !== undefined) {
      try {
        writeFileSync(resolve(io.cwd, values.out), `${JSON.stringify(c.policy, null, 2)}\n`);
      } catch (e) {
        throw new SteplensError('bad_input', `cannot write --out ${values.out}: ${e instanceof Error ? e.message : String(e)}`, { cause: e });
      }
    }
    const left = found.trajectories.length - known.length;
    const priorRefs = reference.kind === 'prior' ? reference.prior.references : 0;
    if (values.json) io.stdout(`${JSON.stringify(c, null, 2)}\n`);
    else io.stdout(humanText(c, left, priorRefs) + (values.out !== undefined ? `wrote ${values.out}\n` : ''));
    return 0;
  },
};

export default command;
