/** `steplens rank FILE...`: N runs of one task, best first, each with what it was scored by (docs/rank.md). */
import path from 'node:path';
import { parseArgs } from 'node:util';
import { locationItems } from '../../core/rank/consensus.js';
import { createFinalPatchTracker, type FinalPatchTracker } from '../../core/rank/final-patch.js';
import { netClass, type PatchClass } from '../../core/rank/patch-class.js';
import { ASKED_BASES, groupTask, rankRuns, type AskedBasis, type RankInput } from '../../core/rank/rank.js';
import { createScorer } from '../../core/scorer.js';
import { holdsPath } from '../../core/pta/index.js';
import type { Reference, Scorer } from '../../core/scorer-api.js';
import { SteplensError } from '../../errors.js';
import { taskFromPath } from '../../report/identity.js';
import { forecastFileArg } from '../../package-files.js';
import { readConfigFile, readForecastFile } from '../../settings-files.js';
import { defaultAnalyzers } from '../../syntax/index.js';
import type { Command } from '../command.js';
import { formatOption, LENIENT_OPTION } from '../input.js';
import { reportLogDiagnostics, type LogFile } from '../instances.js';
import { checkRunsLeft, readRankLogs } from '../rank-logs.js';
import { inSampleWarning } from '../in-sample.js';
import { runFingerprint, trainedRunSet } from '../../core/forecast/fingerprint.js';
import { rankText } from '../rank-text.js';
import { shortRunNames } from '../run-names.js';
import { rankReferences } from '../rank-references.js';
import { analyzersFor } from '../../core/scope-free.js';
import { forecastSource, runForecast, SOURCE_OPTIONS } from '../forecast-source.js';
import { endScorerOf, RANK_MODEL_OPTION, RANK_MODEL_USAGE, rankModelOption } from '../rank-model.js';
import { pushInSlices } from '../../job-slices.js';

/** One run to rank: where it came from, its task, its instance. */
interface Run {
  id: string;
  task: string | undefined;
  instance: LogFile['instances'][number];
}

const holds = (ref: Reference, states: ReturnType<Scorer['states']>): boolean => ref.kind === 'pta' && holdsPath(ref.pta, states);

/** `task` (--task) is for logs that name none, as `POST /v1/rank`'s body task: it never renames a log's own task. */
function runsOf(logs: readonly LogFile[], task: string | undefined): Run[] {
  return logs.flatMap((log) =>
    log.instances.map((x) => ({
      id: log.instances.length > 1 ? `${log.file}#${x.id}` : log.file,
      task: x.parsed.meta.task ?? task ?? taskFromPath(log.file),
      instance: x,
    })),
  );
}

/** `--basis B` (one of {@link ASKED_BASES}) or `--consensus` (the same as `--basis consensus`), not both. */
function basisOption(basis: string | undefined, consensus: boolean | undefined): AskedBasis | undefined {
  if (basis === undefined) return consensus === true ? 'consensus' : undefined;
  if (!(ASKED_BASES as readonly string[]).includes(basis)) throw new SteplensError('usage', `--basis ${basis}: expected one of ${ASKED_BASES.join(', ')}`);
  if (consensus === true && basis !== 'consensus') throw new SteplensError('usage', `--consensus and --basis ${basis} are exclusive: give one basis`);
  return basis as AskedBasis;
}

/** The class of a run's final patch from its counts, as POST /v1/rank makes it (T55: never the list of copies), or the refusal naming the run. */
function finalPatch(patch: FinalPatchTracker, id: string): PatchClass {
  const made = netClass(patch.net());
  if (!made.ok) throw new SteplensError('bad_input', `${id}: its final patch: ${made.error}`);
  return made.value;
}

const command: Command = {
  name: 'rank',
  usage:
    'usage: steplens rank FILE... [--forecast F.json [--agent A] [--model M] [--rank-model end]] [--pta PTA.json | --references DIR... | --bundled] [--consensus | --basis vote]\n' +
    '                     [--task ID] [--mixed-tasks] [--prior-dir DIR] [--config C.json] [--format F] [--json] [--lenient]\n' +
    '  --lenient    skip each file that cannot be read (named on stderr) and rank the rest (at least 2 runs); exit 0\n' +
    '               with skipped lines or events; without it the first unreadable file stops the command\n' +
    '  FILE: finished trajectories of one task (gzipped or not; a file holding several, e.g. OpenHands output.jsonl, gives one run each)\n' +
    "  ordered by the first of: --forecast (P(pass) of each run), the composite against the task's PTA (--pta, or the\n" +
    "  task's stored PTA in --references DIR / --bundled), the composite reference-free (the default); ties are marked\n" +
    '  --prior-dir DIR  reference-free against the prior pooled from the PTAs in DIR (its *.json), not the bundled ones\n' +
    '  --config C.json  scoring weights, tier thresholds, tau, ... (partial override of the defaults), as score takes it\n' +
    '  --forecast bundled  the forecaster shipped with steplens (trained on public runs), instead of a file\n' +
    "  --agent A, --model M  the runs' agent and model (their source), which choose their model in the forecast file, as\n" +
    "               POST /v1/score's agent and model do; default: what each log names (SWE-agent 0.x names no model)\n" +
    '  --consensus  without a forecast or PTA, order by agreement with the other runs on where to edit (labelled consensus)\n' +
    '  --basis B    without a forecast or PTA, order by B: consensus (as --consensus) or vote (how many runs made the same\n' +
    '               final patch, normalised: whitespace, comments, hunk order ignored; ties by the composite; labelled vote)\n' +
    RANK_MODEL_USAGE +
    '  --task ID    the task of runs whose log names none; --mixed-tasks ranks runs of different tasks anyway\n' +
    '  docs/rank.md has what each basis closed of the best-of-N gap on real runs',
  async run(args, io) {
    const { values, positionals } = parseArgs({
      args,
      allowPositionals: true,
      options: {
        forecast: { type: 'string' },
        ...SOURCE_OPTIONS,
        ...RANK_MODEL_OPTION,
        pta: { type: 'string' },
        references: { type: 'string', multiple: true },
        bundled: { type: 'boolean', default: false },
        consensus: { type: 'boolean', default: false },
        basis: { type: 'string' },
        task: { type: 'string' },
        'mixed-tasks': { type: 'boolean', default: false },
        'prior-dir': { type: 'string' },
        config: { type: 'string' },
        format: { type: 'string' },
        json: { type: 'boolean', default: false },
        ...LENIENT_OPTION,
      },
    });
    if (positionals.length === 0) throw new SteplensError('usage', 'expected at least one FILE (the runs of one task to rank)');
    if (values.pta !== undefined && (values.references !== undefined || values.bundled)) throw new SteplensError('usage', '--pta and --references/--bundled are exclusive');
    const format = formatOption(values.format);
    const basis = basisOption(values.basis, values.consensus);
    // One file twice would be ranked against itself (tied 1=) and count twice in the group.
    const twice = positionals.find((f, i) => positionals.findIndex((g) => path.resolve(io.cwd, g) === path.resolve(io.cwd, f)) < i);
    if (twice !== undefined) throw new SteplensError('usage', `${twice} is given twice: each run is ranked once`);
    const { logs, skipped } = await readRankLogs(positionals, format, values.lenient, io.stderr);
    const runs = runsOf(logs, values.task);
    checkRunsLeft(runs.length, skipped);
    // --task is named as POST /v1/rank names body.task: a log of another task makes the group mixed.
    const named = [...(values.task !== undefined ? [{ id: '--task', task: values.task }] : []), ...runs];
    const group = groupTask(named, values['mixed-tasks'], '--mixed-tasks');
    if (!group.ok) throw new SteplensError(group.error.code, group.error.message);
    const task = group.value;
    // A run naming no task joins the group's (groupTask); with --mixed-tasks each run meets its own task's reference.
    const taskOf = (r: Run): string | undefined => r.task ?? task ?? undefined;
    const { of: referenceOf, missing } = await rankReferences(values, runs.map(taskOf), io.cwd);
    const given = values.pta !== undefined ? referenceOf(undefined) : undefined;
    if (given?.kind === 'pta' && task !== null && given.pta.task !== task)
      io.stderr(`warning: the runs are of task ${task}, but ${values.pta} is the reference of task ${given.pta.task}; scored against it anyway\n`);
    for (const log of logs) reportLogDiagnostics(log, log.instances, io.stderr);
    const config = values.config !== undefined ? await readConfigFile(values.config) : undefined;
    const source = forecastSource(values);
    const forecasts = values.forecast !== undefined ? await readForecastFile(forecastFileArg(values.forecast)) : undefined;
    const rankModel = rankModelOption(values['rank-model'], values.forecast, forecasts);
    const trained = trainedRunSet(forecasts?.trainedRuns);
    const all = defaultAnalyzers();
    const states: Array<ReturnType<Scorer['states']>> = [];
    const inputs: RankInput[] = [];
    for (const r of runs) {
      const reference = referenceOf(taskOf(r));
      // Scopes are read by PTA matching and the consensus only: otherwise no file a run views is parsed to find them (core/scope-free.ts).
      const analyzers = analyzersFor(reference, all, basis === 'consensus');
      const forecast = runForecast(forecasts, source, r.instance.parsed.meta);
      const scorer = createScorer({ reference, analyzers, ...(forecast ? { forecast } : {}), ...(config ? { config } : {}) });
      // The vote's final patch is read only when asked (a diff of every finish step parsed for nothing otherwise).
      const patch = basis === 'vote' ? createFinalPatchTracker() : undefined;
      // --rank-model end: the finished run's pPass by the end-of-run model, from the same states and labels.
      const end = endScorerOf(forecasts, rankModel, source, r.instance.parsed.meta);
      const steps = r.instance.parsed.steps;
      // In slices, as `score` does: a parse tree's native memory is freed only on a turn of the loop (T119).
      await pushInSlices(scorer, steps, (pushed, k) => {
        patch?.add(steps[k]!, pushed.state, pushed.label);
        end?.add(steps[k]!, pushed.state, pushed.label);
      });
      const report = scorer.report();
      states.push(scorer.states());
      inputs.push({
        id: r.id,
        task: r.task,
        composite: report.score.total,
        reference: report.reference,
        pPass: end !== undefined ? end.value() : report.pPass,
        // As POST /v1/rank marks it: in --json too, not only in the warning on stderr.
        ...(report.pPass !== undefined && trained !== undefined && steps.length > 0 ? { pPassInSample: trained.has(runFingerprint(steps)) } : {}),
        steps: report.steps,
        locations: [...locationItems(scorer.states())],
        ...(patch !== undefined ? { patch: finalPatch(patch, r.id) } : {}),
      });
    }
    const inSample = inSampleWarning(
      trained,
      runs.map((r) => ({ name: r.id, steps: r.instance.parsed.steps })),
    );
    if (inSample !== undefined) io.stderr(inSample);
    const held = runs.filter((r, i) => holds(referenceOf(taskOf(r)), states[i]!)).map((r) => r.id);
    // Named as the table names them (the shortest unique end of each path); beside --json, whole paths as in it.
    const names = shortRunNames(runs.map((r) => r.id));
    const shown = held.map((id) => (values.json ? id : (names.get(id) ?? id)));
    if (held.length > 0) io.stderr(`warning: the PTA holds the path of ${shown.join(', ')} (a reference it was built from): scored optimistically against it\n`);
    const ranked = rankRuns(inputs, { basis, mixedTasks: values['mixed-tasks'], mixedTasksHint: '--mixed-tasks' });
    if (!ranked.ok) throw new SteplensError(ranked.error.code, ranked.error.message);
    // Where --references / --bundled found no PTA: under the table, or on stderr beside a --json document.
    if (values.json && missing !== undefined) io.stderr(`note: ${missing}\n`);
    io.stdout(values.json ? `${JSON.stringify(ranked.value)}\n` : rankText(ranked.value, { forecast: forecasts !== undefined, asked: basis, missing, endModel: rankModel === 'end' }));
    if (values.lenient) return 0;
    return logs.some((l) => l.diagnostics.length > 0 || l.instances.some((x) => x.parsed.diagnostics.length > 0)) ? 1 : 0;
  },
};

export default command;
