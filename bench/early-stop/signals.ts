/**
 * Issue 14, deliverable 5: does a candidate stop signal stop failing runs
 * earlier without stopping passing ones, on agents and models it was not
 * tuned on? For each signal family (the shipped kinds and the candidates
 * tried), leave one source out at a time: choose the family's threshold on
 * the other sources (the one saving the most failing steps with at most
 * `--source-max` of every source's passing runs stopped), apply it to the
 * held-out source, and sum the held-out numbers over the sources. Prints one
 * markdown row per family: passing runs stopped with their one-sided 95 % Clopper-Pearson upper bound, failing
 * runs stopped with a Wilson 95 % interval, failing steps saved with a 95 % bootstrap interval resampling the
 * failing runs (audit30: the three were bare counts and a bare share).
 *
 *   npm run build && node dist/bench/early-stop/signals.js --outcomes ../shared/calibration/outcomes.csv \
 *     --sources bench/early-stop/sources.csv [--source-max 0.02] ../shared/calibration ../shared/corpus
 */
import { benchArgs, numberFlag } from '../args.js';
import { createHash } from 'node:crypto';
import { scoreKnownRuns, type KnownRun } from '../../src/cli/calibrate-runs.js';
import { readCorpusInput } from '../../src/cli/corpus-input.js';
import { chooseReference } from '../../src/cli/references.js';
import { GRID_KINDS } from '../../src/core/calibrate/index.js';
import { DEFAULT_CONFIG } from '../../src/core/config.js';
import { clopperPearsonUpper } from '../../src/core/stats/binomial.js';
import { bootstrapDraws, resampleIndices, spread } from '../../src/core/stats/bootstrap.js';
import { wilsonInterval } from '../../src/core/stats/interval.js';
import { DEFAULT_POLICY } from '../../src/core/policy.js';
import type { State, Step } from '../../src/core/types.js';
import { nodeReportFs } from '../../src/report/node-fs.js';
import { resolveOutcome } from '../../src/report/resolve-outcome.js';
import { parseSourcesTable, sourceOf } from '../../src/report/sources-table.js';
import { defaultAnalyzers } from '../../src/syntax/index.js';

const { values, positionals } = benchArgs(
  { allowPositionals: true, options: { outcomes: { type: 'string' }, sources: { type: 'string' }, 'source-max': { type: 'string' } } },
  'node dist/bench/early-stop/signals.js --outcomes FILE --sources FILE [--source-max 0.02] PATH...',
);
const sourceMax = numberFlag(values, 'source-max', 'rate between 0 and 1', 0.02);

interface Run {
  source: string;
  passed: boolean;
  states: readonly State[];
  totals: readonly number[];
  steps: readonly Step[];
  obs: string[];
}

const { found, table } = readCorpusInput(positionals, { outcomes: values.outcomes }, process.cwd(), 'signals');
const sourcesTable = values.sources ? parseSourcesTable(nodeReportFs.readText(values.sources) ?? '', values.sources) : undefined;
if (sourcesTable && !sourcesTable.ok) throw sourcesTable.error;
const ctx = { fs: nodeReportFs, cache: new Map(), ...(table ? { table } : {}) };
const known: KnownRun[] = [];
for (const t of found.trajectories) {
  const o = resolveOutcome(ctx, t).outcome;
  if ((o === 'pass' || o === 'fail') && t.steps.length > 0 && t.task !== null)
    known.push({ trajectory: t, task: t.task, passed: o === 'pass', ...sourceOf(sourcesTable?.value ?? [], t.run, t.agent, t.model ?? '(model not named)') });
}
const scored = scoreKnownRuns(known, await chooseReference(undefined), defaultAnalyzers(), DEFAULT_CONFIG);
const norm = (o: string | undefined) =>
  o === undefined
    ? ''
    : createHash('md5')
        .update(
          o
            .replace(/\d+(\.\d+)?/g, '#')
            .replace(/\s+/g, ' ')
            .trim()
            .slice(0, 4000),
        )
        .digest('hex');
const runs: Run[] = scored.map((s, i) => ({
  source: s.run.source,
  passed: s.run.passed,
  states: s.run.states,
  totals: s.run.totals.referenceFree,
  steps: known[i]!.trajectory.steps,
  obs: known[i]!.trajectory.steps.map((x) => norm(x.observation)),
}));
const sources = [...new Set(runs.map((r) => r.source))];
console.log(`${runs.length} runs (${runs.filter((r) => r.passed).length} passing), ${sources.length} sources; per-source cap ${100 * sourceMax} %`);

type At = (r: Run, th: number) => number | null;
const first = (r: Run, pred: (i: number) => boolean): number | null => {
  for (let i = 0; i < r.states.length; i++) if (pred(i)) return i;
  return null;
};
const counting =
  (step: (r: Run, i: number, n: number) => number, reach: (n: number, th: number, i: number) => boolean): At =>
  (r, th) => {
    let n = 0;
    return first(r, (i) => reach((n = step(r, i, n)), th, i));
  };
const repeats =
  (only: (r: Run, i: number) => boolean): At =>
  (r, k) => {
    const seen = new Map<string, number>();
    return first(r, (i) => {
      if (!only(r, i) || r.obs[i] === '') return false;
      const c = (seen.get(r.obs[i]!) ?? 0) + 1;
      seen.set(r.obs[i]!, c);
      return c >= k;
    });
  };
const edits = (s: State) => s.stage === 'I' && s.changesFile;
const FAMILIES: Record<string, { ths: number[]; at: At; what: string }> = {
  noEdit: { what: 'no file edited by step N', ths: [10, 12, 15, 20, 25, 30, 40], at: (r, n) => (r.states.length >= n && !r.states.slice(0, n).some(edits) ? n - 1 : null) },
  sinceEdit: {
    what: 'N steps in a row without an edit',
    ths: [10, 15, 20, 25, 30, 40, 50],
    at: counting(
      (r, i, n) => (edits(r.states[i]!) ? 0 : n + 1),
      (n, th) => n >= th,
    ),
  },
  sameFailingOutput: { what: 'the same failing output (numbers masked) k times', ths: [2, 3, 4, 5, 6, 8], at: repeats((r, i) => r.states[i]!.failed) },
  sameOutput: { what: 'the same output k times', ths: [3, 4, 5, 6, 8, 10], at: repeats(() => true) },
  failStreak: {
    what: 'k failed steps in a row',
    ths: [3, 4, 5, 6, 8],
    at: counting(
      (r, i, n) => (r.states[i]!.failed ? n + 1 : 0),
      (n, th) => n >= th,
    ),
  },
  failedTotal: {
    what: 'k failed steps in all',
    ths: [5, 8, 10, 15, 20],
    at: counting(
      (r, i, n) => n + (r.states[i]!.failed ? 1 : 0),
      (n, th) => n >= th,
    ),
  },
  stepBudget: { what: 'N steps (a step budget)', ths: [20, 25, 30, 40, 50, 60, 80, 100], at: (r, n) => (r.states.length >= n ? n - 1 : null) },
  tokenBudget: {
    what: 'T tokens spent (a cost budget)',
    ths: [1e4, 2e4, 4e4, 8e4, 16e4],
    at: counting(
      (r, i, n) => n + r.states[i]!.cost,
      (n, th) => n >= th,
    ),
  },
  unparsedStreak: {
    what: 'k steps in a row with no action, an unmapped tool, a message or a think',
    ths: [2, 3, 4],
    at: counting(
      (r, i, n) => (['none', 'other', 'think', 'message'].includes(r.states[i]!.kind) ? n + 1 : 0),
      (n, th) => n >= th,
    ),
  },
  editsWithoutTest: {
    what: 'k edits without a verification in between',
    ths: [5, 8, 10, 15],
    at: counting(
      (r, i, n) => (edits(r.states[i]!) ? n + 1 : r.states[i]!.stage === 'V' ? 0 : n),
      (n, th) => n >= th,
    ),
  },
};
for (const kind of GRID_KINDS) {
  FAMILIES[`${kind.key} (shipped kind)`] = {
    what: 'the kind alone, reference-free',
    ths: kind.candidates.map((_, j) => j),
    at: (r, j) => kind.stops({ states: r.states, totals: r.totals }, [kind.candidates[j]], DEFAULT_POLICY)[0] ?? null,
  };
}

interface Tally {
  P: number;
  ps: number;
  F: number;
  fs: number;
  steps: number;
  saved: number;
}
const tally = (v: Array<number | null>, pick: (r: Run) => boolean): Tally => {
  const t: Tally = { P: 0, ps: 0, F: 0, fs: 0, steps: 0, saved: 0 };
  runs.forEach((r, i) => {
    if (!pick(r)) return;
    const s = v[i] ?? null;
    if (r.passed) {
      t.P += 1;
      if (s !== null) t.ps += 1;
    } else {
      t.F += 1;
      t.steps += r.states.length;
      if (s !== null) {
        t.fs += 1;
        t.saved += r.states.length - 1 - s;
      }
    }
  });
  return t;
};
const safeOn = (v: Array<number | null>, srcs: string[]) =>
  srcs.every((s) => {
    const t = tally(v, (r) => r.source === s);
    return t.ps <= Math.floor(sourceMax * t.P + 1e-9);
  });
const pct = (a: number, b: number) => (b === 0 ? '-' : `${((100 * a) / b).toFixed(1)} %`);
const iv = (i: { lo: number; hi: number } | null) => (i === null ? '[-]' : `[${(100 * i.lo).toFixed(1)}, ${(100 * i.hi).toFixed(1)}]`);
/** Failing steps saved over the failing runs' steps, resampling the failing runs (held-out savings, one per run). */
function savedShareInterval(saved: readonly number[], steps: readonly number[]) {
  const n = saved.length;
  if (n < 5 || saved.every((x) => x === 0)) return null;
  return spread(
    bootstrapDraws((random) => {
      let a = 0;
      let b = 0;
      for (const i of resampleIndices(random, n)) [a, b] = [a + saved[i]!, b + steps[i]!];
      return b === 0 ? null : a / b;
    }),
  );
}
console.log(
  '| signal | what | held out (each source judged by the threshold chosen on the others): passing stopped (95 % upper) | failing stopped [Wilson 95 %] | failing steps saved [95 %, failing runs resampled] | sources where it stopped a passing run | chosen on all sources |',
);
console.log('| --- | --- | --- | --- | --- | --- | --- |');
for (const [name, f] of Object.entries(FAMILIES)) {
  const vectors = f.ths.map((th) => runs.map((r) => f.at(r, th)));
  const sum: Tally = { P: 0, ps: 0, F: 0, fs: 0, steps: 0, saved: 0 };
  const hurt: string[] = [];
  // Each failing run's steps saved by the threshold chosen without its source, and its steps.
  const savedOf: number[] = [];
  const stepsOf: number[] = [];
  for (const S of sources) {
    const train = sources.filter((s) => s !== S);
    let best = -1;
    let bestSaved = -1;
    vectors.forEach((v, j) => {
      if (!safeOn(v, train)) return;
      const saved = tally(v, (r) => r.source !== S).saved;
      if (saved > bestSaved) [best, bestSaved] = [j, saved];
    });
    const chosen = best < 0 ? runs.map(() => null) : vectors[best]!;
    const held = tally(chosen, (r) => r.source === S);
    runs.forEach((r, i) => {
      if (r.source !== S || r.passed) return;
      const at = chosen[i] ?? null;
      savedOf.push(at === null ? 0 : r.states.length - 1 - at);
      stepsOf.push(r.states.length);
    });
    for (const k of Object.keys(sum) as Array<keyof Tally>) sum[k] += held[k];
    if (held.ps > Math.floor(sourceMax * held.P + 1e-9)) hurt.push(`${S} ${held.ps}/${held.P}`);
  }
  let allBest = -1;
  let allSaved = -1;
  vectors.forEach((v, j) => {
    if (!safeOn(v, sources)) return;
    const saved = tally(v, () => true).saved;
    if (saved > allSaved) [allBest, allSaved] = [j, saved];
  });
  const th =
    allBest < 0
      ? 'none is safe on every source'
      : name.endsWith('(shipped kind)')
        ? JSON.stringify(GRID_KINDS.find((k) => name.startsWith(k.key))!.candidates[f.ths[allBest]!])
        : String(f.ths[allBest]);
  const upper = sum.P === 0 ? '-' : `≤ ${(100 * clopperPearsonUpper(sum.ps, sum.P)).toFixed(1)} %`;
  const failing = sum.F === 0 ? '- [-]' : `${pct(sum.fs, sum.F)} ${iv(wilsonInterval(sum.fs, sum.F))}`;
  const cells = [`${sum.ps} / ${sum.P} (${upper})`, `${sum.fs} / ${sum.F} (${failing})`, `${pct(sum.saved, sum.steps)} ${iv(savedShareInterval(savedOf, stepsOf))}`];
  console.log(`| ${name} | ${f.what} | ${cells.join(' | ')} | ${hurt.join('; ') || 'none'} | ${th} |`);
}
