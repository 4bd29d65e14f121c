/**
 * Issue 26, items 2-3 (task ecdf28): the within-source normalised features of bench/forecast-norm.ts (norm27),
 * chosen on best-of-N held out beside within-source AUROC, and a transductive variant `rank` can compute itself.
 * For each fold seed and variant (shipped, A-centre, B-ecdf by default; forecast-norm/normalise.ts) the runs go
 * through train's held-out procedure (select.ts choice without the scored source; leave one source and task out):
 *   - within-source AUROC at the end (95 % intervals resampling tasks) and the mean at t = 20, 40;
 *   - per source, within-task pairwise AUROC (pass/fail pairs of one source and task) and best-of-N (top pick vs random
 *     and oracle, gap closed, groups resampled) where a source has 5 or more informative groups;
 *   - "G-" + variant: the same held-out model fed each run's end row normalised among ITS GROUP's end rows only (same
 *     source and task): what `rank FILE...` / POST /v1/rank could compute from the N runs it is given;
 *   - best-of-N over task groups ACROSS the sources other than a multi-run source (groups by task alone);
 *   - the choice without each scored source: by the mean AUROC of the other steering sources (norm27's), and by that
 *     averaged with (1 + gap closed) / 2 on the best-of-N groups of the other sources (within-source groups of another
 *     multi-run source if there is one, else the cross-source task groups of the others), and its held-out figures.
 * `D-pooled` (asked in --variants; not by default): every feature as its ECDF among the pooled runs of every source
 * but the multi-run one, no statistics of that source at all; measured on the multi-run source only.
 *
 *   npm run build && node dist/bench/forecast-ecdf.js --manifest ../shared/calibration/manifest.jsonl \
 *     --sources bench/early-stop/sources.csv [--variants shipped,A-centre,B-ecdf,D-pooled] [--folds 5] [--seeds 1,2,3,4,5] \
 *     [--json FILE] ../shared/calibration ../shared/corpus
 */
import os from 'node:os';
import { crossCalibrate } from '../src/core/forecast/crossfit.js';
import { evaluateView } from '../src/core/forecast/evaluate.js';
import type { FitConfig } from '../src/core/forecast/fit.js';
import { applyPlatt } from '../src/core/forecast/platt.js';
import { sourceOf, type ForecastRun } from '../src/core/forecast/run.js';
import { selectConfig } from '../src/core/forecast/select.js';
import { separation, type Separation } from '../src/core/stats/separation.js';
import { argsError, benchArgs, numberFlag, numberListFlag } from './args.js';
import { bestOf, endScores, heldOutWithExtra, pairedGap, scoredOf } from './forecast-ecdf/held-out.js';
import { groupEndRows, normalised, pooledNormalised, VARIANTS } from './forecast-norm/normalise.js';
import { machine, machineLine, takeJsonFlag, writeResult } from './report.js';
import { commandLine } from './timing.js';
import { loadForecastRuns } from './calibration-runs.js';

/** The ECDF against the pooled runs of the other sources (every source but the multi-run one scored): measured on that source alone. */
const POOLED = 'D-pooled';
const jsonFile = takeJsonFlag();
const { values, positionals } = benchArgs({
  allowPositionals: true,
  options: { manifest: { type: 'string' }, outcomes: { type: 'string' }, sources: { type: 'string' }, variants: { type: 'string' }, folds: { type: 'string' }, seeds: { type: 'string' } },
});
if (positionals.length === 0) argsError('give the run folders as arguments (e.g. ../shared/calibration ../shared/corpus)');
const folds = numberFlag(values, 'folds', 'positive integer', 5);
const seeds = numberListFlag(values, 'seeds', 'non-negative integer', [1, 2, 3, 4, 5]);
const asked = (values.variants ?? 'shipped,A-centre,B-ecdf').split(',');
for (const v of asked) if (!(v in VARIANTS) && v !== POOLED) argsError(`--variants: unknown variant ${v} (known: ${[...Object.keys(VARIANTS), POOLED].join(', ')})`);
const variants = asked.filter((v) => v !== POOLED);
if (variants[0] !== 'shipped') argsError('--variants: the first must be shipped (every paired figure is against it)');

const started = Date.now();
const runs: readonly ForecastRun[] = await loadForecastRuns(positionals, values, 'forecast-ecdf');
const load = () =>
  os
    .loadavg()
    .map((x) => x.toFixed(1))
    .join(' ');
console.log(`command: ${commandLine(import.meta.url)}`);
console.log(machineLine());
console.log(
  `${runs.length} runs (${runs.filter((r) => r.passed).length} passing) read in ${((Date.now() - started) / 1000).toFixed(0)} s; load ${load()}; ${folds} task folds, seeds ${seeds.join(', ')}`,
);

const f3 = (x: number | null | undefined) => (x === null || x === undefined ? '-' : x.toFixed(3));
const f2 = (x: number | null | undefined) => (x === null || x === undefined ? '-' : x.toFixed(2));
const sgn = (x: number | null) => (x === null ? '-' : `${x >= 0 ? '+' : ''}${x.toFixed(2)}`);
const iv = (i: { lo: number; hi: number } | null) => (i === null ? '[-]' : `[${f2(i.lo)}, ${f2(i.hi)}]`);
const mean = (xs: ReadonlyArray<number | null>) => {
  const v = xs.filter((x): x is number => x !== null);
  return v.length === 0 ? null : v.reduce((a, b) => a + b, 0) / v.length;
};

// The multi-run sources (5+ groups of one task with a passing and a failing run) and, for each, the cross-source groups of the others.
const multi = [...new Set(runs.map(sourceOf))].sort().filter((s) => informativeGroups(s) >= 5);
function informativeGroups(s: string): number {
  const g = new Map<string, [number, number]>();
  for (const r of runs.filter((x) => sourceOf(x) === s)) {
    const c = g.get(r.task) ?? [0, 0];
    c[r.passed ? 0 : 1] += 1;
    g.set(r.task, c);
  }
  return [...g.values()].filter(([p, f]) => p > 0 && f > 0).length;
}
console.log(`multi-run sources (5+ informative task groups): ${multi.join(', ') || 'none'}`);

interface VariantResult {
  end: Separation;
  at: Record<string, Separation>;
  ends: Array<number | null>;
  /** Per extra row set: the group-normalised end scores (within-source groups; cross-source groups without each multi-run source). */
  gWithin: Array<number | null> | null;
  gCross: Record<string, Array<number | null>>;
  steering: string[];
}

function runVariant(name: string, seed: number): VariantResult {
  const v = VARIANTS[name]!;
  const rs = normalised(runs, v);
  const sel = selectConfig(rs, folds, seed);
  const configFor = (s: string): FitConfig => sel.candidates[sel.chosenApart[s] ?? sel.candidates.indexOf(sel.chosen)]!.config;
  // The group rows come from the RAW features (what rank is given), not from the source-normalised ones.
  const extra: Array<Array<Float64Array | null>> = [];
  if (v.kind !== null) {
    extra.push(groupEndRows(runs, v));
    for (const m of multi) {
      const idx = runs.flatMap((r, i) => (sourceOf(r) === m ? [] : [i]));
      const rows = groupEndRows(
        idx.map((i) => runs[i]!),
        v,
        (r) => r.task,
      );
      const all: Array<Float64Array | null> = runs.map(() => null);
      idx.forEach((i, k) => (all[i] = rows[k]!));
      extra.push(all);
    }
  }
  const { apart, extra: more } = heldOutWithExtra(rs, configFor, folds, seed, extra);
  const cal = crossCalibrate(rs, apart, folds, seed);
  const p = apart.scores.map((z, i) => (z === null || cal[i] === null || cal[i] === undefined ? null : z.map((x) => applyPlatt(cal[i]!, x))));
  const view = evaluateView(rs, apart.scores, p, { seed });
  return {
    end: view.end,
    at: view.at,
    ends: endScores(apart),
    gWithin: v.kind === null ? null : more[0]!,
    gCross: Object.fromEntries(multi.map((m, k) => [m, v.kind === null ? [] : more[k + 1]!])),
    steering: sel.steering,
  };
}

const aurocOf = (sep: Separation, s: string) => sep.withinSource.sources.find((y) => y.source === s)?.auroc ?? null;
/** The scores a row of the tables ranks by: a variant's held-out end score, or its group-normalised one ("G-"). */
const rowsOf = (res: Record<string, VariantResult>) => [
  ...variants.map((n) => ({ name: n, r: res[n]!, within: res[n]!.ends, cross: (m: string) => res[n]!.ends.map((x, i) => (sourceOf(runs[i]!) === m ? null : x)) })),
  ...variants.filter((n) => VARIANTS[n]!.kind !== null).map((n) => ({ name: `G-${n}`, r: res[n]!, within: res[n]!.gWithin!, cross: (m: string) => res[n]!.gCross[m]! })),
];
const wtOf = (scores: ReadonlyArray<number | null>, s: string, seed: number) =>
  separation(
    scoredOf(runs, scores).filter((x) => x.source === s),
    { seed, unit: 'task' },
  ).withinTask;

const summary: Array<Record<string, number | string | null>> = [];
for (const seed of seeds) {
  const t0 = Date.now();
  const res: Record<string, VariantResult> = {};
  for (const name of variants) res[name] = runVariant(name, seed);
  const boot = { seed };
  const steer = res.shipped!.steering;
  const sources = res.shipped!.end.withinSource.sources.filter((s) => s.counted);
  console.log(`\n## seed ${seed} (${((Date.now() - t0) / 1000).toFixed(0)} s, load ${load()})`);
  console.log(`| score | ${sources.map((s) => `${s.source} (${s.nPass} / ${s.nFail})`).join(' | ')} | mean, steering | t = 20 | t = 40 |`);
  console.log(`| --- | ${sources.map(() => '---').join(' | ')} | --- | --- | --- |`);
  const atMean = (sep: Separation) => mean(sep.withinSource.sources.filter((x) => x.counted && steer.includes(x.source)).map((x) => x.auroc));
  for (const { name, r } of rowsOf(res).filter((x) => !x.name.startsWith('G-'))) {
    const cells = sources.map((s) => {
      const x = r.end.withinSource.sources.find((y) => y.source === s.source);
      return `${f3(x?.auroc)} ${iv(x?.interval ?? null)}`;
    });
    console.log(`| ${name} | ${cells.join(' | ')} | ${f3(mean(steer.map((s) => aurocOf(r.end, s))))} | ${f3(atMean(r.at['20']!))} | ${f3(atMean(r.at['40']!))} |`);
  }
  // Within task and best-of-N, per source with pairs; the cross-source groups without each multi-run source.
  const withPairs = [...new Set(runs.map(sourceOf))].sort().filter((s) => wtOf(res.shipped!.ends, s, seed).pairs > 0);
  for (const { name, within, cross } of rowsOf(res)) {
    const parts = withPairs.map((s) => {
      const wt = wtOf(within, s, seed);
      const b = bestOf(
        scoredOf(runs, within).filter((x) => x.source === s),
        boot,
      );
      const bon =
        b.informative >= 5 ? `; best-of-N ${f2(b.top.resolved)} vs ${f2(b.random.resolved)} / ${b.oracle.resolved}, gap ${f2(b.gapClosed)} ${iv(b.gapInterval)} (${b.informative} informative)` : '';
      return `${s}: within task ${f3(wt.auroc)} ${iv(wt.interval)} (${wt.pairs} pairs, ${wt.tasks} tasks)${bon}`;
    });
    const crossParts = multi.map((m) => {
      const b = bestOf(scoredOf(runs, cross(m), true), boot);
      return `across the sources but ${m}: gap ${f2(b.gapClosed)} ${iv(b.gapInterval)} (${b.informative} informative of ${b.groups} groups; random ${f2(b.random.resolved)}, oracle ${b.oracle.resolved})`;
    });
    console.log(`${name}: ${[...parts, ...crossParts].join('; ')}`);
  }
  const rows = rowsOf(res);
  const shippedRow = rows[0]!;
  for (const row of rows.slice(1))
    for (const m of multi) {
      const d = pairedGap(
        scoredOf(runs, row.within).filter((x) => x.source === m),
        scoredOf(runs, shippedRow.within).filter((x) => x.source === m),
        boot,
      );
      console.log(`${row.name} − shipped, gap closed, paired (${m}, ${d.n} informative groups resampled): ${sgn(d.d)} ${iv(d.interval)}`);
    }

  // The choice without each scored source (steering and multi-run): criteria on the other sources only.
  const bonSet = (row: (typeof rows)[number], s: string): number | null => {
    const others = multi.filter((m) => m !== s);
    if (others.length > 0)
      return mean(
        others.map(
          (m) =>
            bestOf(
              scoredOf(runs, row.within).filter((x) => x.source === m),
              { reps: 0 },
            ).gapClosed,
        ),
      );
    return mean(multi.map((m) => bestOf(scoredOf(runs, row.cross(m), true), { reps: 0 }).gapClosed));
  };
  const scoredSources = [...new Set([...steer, ...multi])].sort();
  console.log(`\nchoice without each scored source (pPass variants: ${variants.join(', ')}; rank bases: every row)`);
  for (const s of scoredSources) {
    const others = steer.filter((x) => x !== s);
    const aucCrit = (row: (typeof rows)[number]) => (row.name.startsWith('G-') ? null : mean(others.map((o) => aurocOf(row.r.end, o))));
    const both = (row: (typeof rows)[number]) => {
      const a = aucCrit(row);
      const b = bonSet(row, s);
      return a === null ? null : b === null ? a : (a + (1 + b) / 2) / 2;
    };
    const rank = (row: (typeof rows)[number]) => bonSet(row, s);
    const pick = (crit: (row: (typeof rows)[number]) => number | null, pool: typeof rows) => pool.reduce((a, b) => ((crit(b) ?? -Infinity) > (crit(a) ?? -Infinity) + 1e-12 ? b : a));
    const pv = rows.filter((x) => !x.name.startsWith('G-'));
    const byAuc = pick(aucCrit, pv);
    const byBoth = pick(both, pv);
    const byRank = pick(rank, rows);
    const heldOut = (row: (typeof rows)[number]) => {
      const a = row.name.startsWith('G-') ? '-' : f3(aurocOf(row.r.end, s));
      if (!multi.includes(s)) return `AUROC on it ${a}`;
      const b = bestOf(
        scoredOf(runs, row.within).filter((x) => x.source === s),
        boot,
      );
      const d = pairedGap(
        scoredOf(runs, row.within).filter((x) => x.source === s),
        scoredOf(runs, shippedRow.within).filter((x) => x.source === s),
        boot,
      );
      return `AUROC on it ${a}, gap closed ${f2(b.gapClosed)} ${iv(b.gapInterval)}, − shipped ${sgn(d.d)} ${iv(d.interval)}`;
    };
    const crits = rows.map((x) => `${x.name} ${f3(aucCrit(x))} / ${f3(both(x))} / ${f2(rank(x))}`).join(', ');
    console.log(
      `without ${s}: by AUROC ${byAuc.name} (${heldOut(byAuc)}); by AUROC + best-of-N ${byBoth.name} (${heldOut(byBoth)}); rank basis by best-of-N ${byRank.name} (${heldOut(byRank)}). criteria (AUROC / both / gap): ${crits}`,
    );
    summary.push({ seed, source: s, byAuc: byAuc.name, byBoth: byBoth.name, byRank: byRank.name });
  }
  if (asked.includes(POOLED)) for (const m of multi) pooledFor(m, seed, res.shipped!.ends);
}
console.log(`\n${((Date.now() - started) / 1000).toFixed(0)} s, load ${load()}`);

/**
 * D: every feature as its mid-rank ECDF among the pooled runs of every source but `m` (at the same checkpoint): one
 * fixed map per feature a model file could carry, so no statistics of the scored source at all; measured on `m`.
 */
function pooledFor(m: string, seed: number, shippedEnds: ReadonlyArray<number | null>): void {
  const rs = pooledNormalised(
    runs,
    VARIANTS['B-ecdf']!,
    runs.filter((r) => sourceOf(r) !== m),
  );
  const sel = selectConfig(rs, folds, seed);
  const configFor = (s: string): FitConfig => sel.candidates[sel.chosenApart[s] ?? sel.candidates.indexOf(sel.chosen)]!.config;
  const { apart } = heldOutWithExtra(rs, configFor, folds, seed, []);
  const ends = endScores(apart);
  // The other sources' figures: their own runs are in the population (as B uses a source's own runs), so not held out from it.
  const view = evaluateView(rs, apart.scores, apart.scores, { seed });
  const steer = sel.steering.filter((s) => s !== m);
  const others = (sep: Separation) => steer.map((s) => `${s} ${f3(aurocOf(sep, s))}`).join(', ');
  const atMean = (sep: Separation) => mean(sep.withinSource.sources.filter((x) => x.counted && sel.steering.includes(x.source)).map((x) => x.auroc));
  console.log(
    `${POOLED}, population every source but ${m}: end AUROC ${others(view.end)}; mean of the steering sources counted at t = 20 ${f3(atMean(view.at['20']!))}, t = 40 ${f3(atMean(view.at['40']!))}`,
  );
  const own = (e: ReadonlyArray<number | null>) => scoredOf(runs, e).filter((x) => x.source === m);
  const sep = separation(own(ends), { seed, unit: 'task' });
  const x = sep.withinSource.sources[0];
  const b = bestOf(own(ends), { seed });
  const d = pairedGap(own(ends), own(shippedEnds), { seed });
  console.log(
    `${POOLED} on ${m}: AUROC ${f3(x?.auroc)} ${iv(x?.interval ?? null)}, within task ${f3(sep.withinTask.auroc)} ${iv(sep.withinTask.interval)} (${sep.withinTask.pairs} pairs), gap closed ${f2(b.gapClosed)} ${iv(b.gapInterval)}, − shipped ${sgn(d.d)} ${iv(d.interval)} (${d.n} informative)`,
  );
}
writeResult(jsonFile, {
  bench: 'forecast-ecdf',
  command: commandLine(import.meta.url),
  machine: machine(),
  targets: [],
  figures: Object.fromEntries(summary.map((x, i) => [`choice ${i}`, JSON.stringify(x)])),
});
