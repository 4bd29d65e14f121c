/**
 * Issue 26 item 4, the search for a PTA-mode score that holds held out: ways of choosing the composite's weights
 * that should be robust on small sources (coarse grids, shrinkage toward the weights in force or equal weights, a
 * structural prior, the within-task pairs as an extra criterion) and combinations of the Φ signals with the
 * forecaster's reference-free pPass (pta-candidates.ts). Every choice is made without the group it is measured on
 * (sources of ≥ 20 runs with 3 of each outcome; the rest pooled as "other", as `choosePtaWeights` groups them),
 * and the pPass the choice reads is fitted without the held-out group too. Each held-out score is read within
 * source with n and a bootstrap interval (core/stats separation, seed 1), beside its paired bootstrap difference
 * from Φstruct alone (the best single signal on both large sources) and whether it holds: ≥ 0.80 and ≥ every
 * single Φ on every named group. `--failing-reference matched` scores failing runs against size-matched
 * references instead (pta-matched.ts).
 *
 *   npm run build && node dist/bench/pta-rules.js --manifest ../shared/calibration/manifest.jsonl \
 *     --sources bench/early-stop/sources.csv [--min-references 1,2] [--failing-reference all|matched] [--json FILE] ../shared/calibration ../shared/corpus
 */
import os from 'node:os';
import { ptaSamples } from '../src/cli/train-references.js';
import { DEFAULT_CONFIG } from '../src/core/config.js';
import { leaveSourceOut } from '../src/core/forecast/crossfit.js';
import { OTHER_SOURCE } from '../src/core/forecast/prior-weights.js';
import { ptaGroups, type PtaSample } from '../src/core/forecast/pta-weights.js';
import { sourceOf } from '../src/core/forecast/run.js';
import { DEFAULT_FIT } from '../src/core/forecast/select.js';
import { sigmoid } from '../src/core/forecast/logistic.js';
import { auroc } from '../src/core/stats/auroc.js';
import { bootstrapDraws, resampleIndices, spread } from '../src/core/stats/bootstrap.js';
import { separation } from '../src/core/stats/separation.js';
import { defaultAnalyzers } from '../src/syntax/index.js';
import { argsError, benchArgs, numberListFlag } from './args.js';
import { fixedRule, gridRule, logisticRule, type Row, type Rule } from './pta-candidates.js';
import { ptaInput } from './pta-input.js';
import { matchedPtaSamples } from './pta-matched.js';
import { machine, machineLine, takeJsonFlag, writeResult } from './report.js';
import { commandLine } from './timing.js';

const jsonFile = takeJsonFlag();
const { values, positionals } = benchArgs({
  allowPositionals: true,
  options: { manifest: { type: 'string' }, outcomes: { type: 'string' }, sources: { type: 'string' }, 'min-references': { type: 'string' }, 'failing-reference': { type: 'string' } },
});
const matched = values['failing-reference'] === 'matched';
if (!matched && (values['failing-reference'] ?? 'all') !== 'all') argsError('--failing-reference is all (the PTA of every passing run, as train and report) or matched (pta-matched.ts)');
const minReferences = numberListFlag(values, 'min-references', 'positive integer', [1, 2]);
const started = Date.now();
const { input, prior } = await ptaInput(positionals, values, 'pta-rules');
console.log(`command: ${commandLine(import.meta.url)}\n${machineLine()}`);
console.log(
  `${input.runs.length} runs with an outcome; load ${os
    .loadavg()
    .map((x) => x.toFixed(1))
    .join(' ')}`,
);

const PHI = [0, 1, 2, 3];
const FORCE = [0.2, 0.15, 0.3, 0.35, 0];
const RULES: Array<[string, Rule]> = [
  ['weights in force (no choice)', fixedRule('struct .2, cov .15, coh .3, temp .35', (r) => FORCE.reduce((s, w, i) => s + w * r.x[i]!, 0))],
  ['Φstruct alone (no choice)', fixedRule('struct 1', (r) => r.x[0]!)],
  ['Φcov alone (no choice)', fixedRule('cov 1', (r) => r.x[1]!)],
  ['Φcoh alone (no choice)', fixedRule('coh 1', (r) => r.x[2]!)],
  ['Φtemp alone (no choice)', fixedRule('temp 1', (r) => r.x[3]!)],
  ['run length, shorter wins (no choice)', fixedRule('steps −1', (r) => -r.steps)],
  ['pPass alone (forecaster without the source; no choice)', fixedRule('pPass 1', (r) => r.z)],
  ["grid .05 over Φ, worst margin (train's rule)", gridRule({ dims: PHI, step: 0.05 })],
  ['grid .25 over Φ', gridRule({ dims: PHI, step: 0.25 })],
  ['grid .5 over Φ', gridRule({ dims: PHI, step: 0.5 })],
  ['grid .05, shrunk toward the weights in force (λ .1)', gridRule({ dims: PHI, step: 0.05, shrink: { lambda: 0.1, anchor: FORCE } })],
  ['grid .05, shrunk toward equal weights (λ .1)', gridRule({ dims: PHI, step: 0.05, shrink: { lambda: 0.1, anchor: [0.25, 0.25, 0.25, 0.25, 0] } })],
  ['grid .05, structural prior Φstruct ≥ .5', gridRule({ dims: PHI, step: 0.05, constraint: (w) => w[0]! >= 0.5 - 1e-9 })],
  ['grid .05, structural prior Φstruct ≥ each other weight', gridRule({ dims: PHI, step: 0.05, constraint: (w) => w.every((v) => v <= w[0]! + 1e-9) })],
  ['grid .1 over Φ, + within-task concordance', gridRule({ dims: PHI, step: 0.1, withinTask: 1 })],
  ['grid .1 over Φ and pPass', gridRule({ dims: [0, 1, 2, 3, 4], step: 0.1 })],
  ['logistic: Φstruct + forecaster z', logisticRule(['struct', 'z'], (r) => [r.x[0]!, r.z])],
  ['logistic: four Φ + forecaster z', logisticRule(['struct', 'cov', 'coh', 'temp', 'z'], (r) => [...r.x.slice(0, 4), r.z])],
];

/** The forecaster's end-of-run z of every run, each fitted without its source and without the sources in `without`. */
function heldOutZ(without: ReadonlySet<string>, need: ReadonlySet<string>): Map<string, number> {
  const runs = input.runs.filter((r) => !without.has(sourceOf(r)));
  const h = leaveSourceOut(runs, () => DEFAULT_FIT, [...need].filter((s) => !without.has(s)).sort());
  const out = new Map<string, number>();
  runs.forEach((r, i) => {
    const z = h.scores[i];
    if (z !== null && z !== undefined && z.length > 0) out.set(r.id, z[z.length - 1]!);
  });
  return out;
}
const rowOf = (s: PtaSample, z: Map<string, number>): Row => {
  const zi = z.get(s.id ?? '') ?? 0;
  return { source: s.source, task: s.task ?? '', passed: s.passed, x: [s.struct, s.cov, 100 * s.coh, 100 * s.temp, 100 * sigmoid(zi)], z: zi, steps: s.steps };
};
const f3 = (x: number | null | undefined) => (x === null || x === undefined ? '-' : x.toFixed(3));
const f2 = (x: number | undefined) => (x === undefined ? '-' : x.toFixed(2));
const figures: Record<string, number | string> = {};

for (const minRefs of minReferences) {
  // `all` must be asked for: train's rule (ptaSamples' default) has been size-matched since 17ea44d.
  const samples = matched ? matchedPtaSamples(input.known, prior, defaultAnalyzers(), DEFAULT_CONFIG, minRefs) : ptaSamples(input.known, prior, defaultAnalyzers(), DEFAULT_CONFIG, minRefs, 'all');
  const groups = ptaGroups(samples, 20);
  const names = [...groups.keys()].sort();
  const sourcesOf = (n: string) => new Set(groups.get(n)!.map((s) => s.source));
  const zAll = heldOutZ(new Set(), new Set(samples.map((s) => s.source)));
  const zWithout = new Map(names.map((h) => [h, heldOutZ(sourcesOf(h), new Set(names.filter((n) => n !== h).flatMap((n) => [...sourcesOf(n)])))]));
  console.log(
    `\n## references: >= ${minRefs} other passing run(s), failing runs against ${matched ? 'size-matched references' : 'all passing runs'}; ${samples.length} runs (${samples.filter((s) => s.passed).length} passing); groups: ${names.map((n) => `${n} (${groups.get(n)!.filter((s) => s.passed).length} / ${groups.get(n)!.filter((s) => !s.passed).length})`).join('; ')}`,
  );
  const named = names.filter((n) => n !== OTHER_SOURCE);
  const results = RULES.map(([name, rule]) => {
    const chosen = new Map<string, string>();
    const scored = new Map<PtaSample, number>();
    for (const h of names) {
      const c = rule(names.filter((n) => n !== h).map((n) => groups.get(n)!.map((s) => rowOf(s, zWithout.get(h)!))));
      chosen.set(h, c.text);
      for (const s of groups.get(h)!) scored.set(s, c.score(rowOf(s, zAll)));
    }
    const sep = separation(
      samples.map((s) => ({ source: s.source, task: s.task ?? '', pass: s.passed, score: scored.get(s)! })),
      { seed: 1 },
    );
    return { name, chosen, scored, sep };
  });
  const struct = new Map(samples.map((s) => [s, s.struct]));
  /** Paired stratified bootstrap of AUROC(score) − AUROC(Φstruct) on one group. */
  const delta = (g: readonly PtaSample[], score: Map<PtaSample, number>) => {
    const pos = g.filter((s) => s.passed);
    const neg = g.filter((s) => !s.passed);
    const d = (p: readonly PtaSample[], n: readonly PtaSample[]) =>
      auroc(
        p.map((s) => score.get(s)!),
        n.map((s) => score.get(s)!),
      )!.auroc -
      auroc(
        p.map((s) => struct.get(s)!),
        n.map((s) => struct.get(s)!),
      )!.auroc;
    return {
      value: d(pos, neg),
      // Φstruct against itself is 0 in every draw: no interval (it printed `+0.000 [0.00, 0.00]`).
      interval: spread(
        bootstrapDraws(
          (random) =>
            d(
              resampleIndices(random, pos.length).map((i) => pos[i]!),
              resampleIndices(random, neg.length).map((i) => neg[i]!),
            ),
          { seed: 1 },
        ),
      ),
    };
  };
  const counted = results[0]!.sep.withinSource.sources.filter((s) => s.counted).map((s) => s.source);
  const singles = (n: string) =>
    [0, 1, 2, 3].map(
      (j) =>
        auroc(
          ...((['pos', 'neg'] as const).map((k) =>
            groups
              .get(n)!
              .filter((s) => s.passed === (k === 'pos'))
              .map((s) => [s.struct, s.cov, s.coh, s.temp][j]!),
          ) as [number[], number[]]),
        )!.auroc,
    );
  console.log(`\n| score | ${counted.map((s) => `${s} (${named.includes(s) ? 'Δ vs Φstruct, paired' : 'small'})`).join(' | ')} | within-source mean | within task | holds |`);
  console.log(`| --- | ${counted.map(() => '---').join(' | ')} | --- | --- | --- |`);
  for (const r of results) {
    const by = new Map(r.sep.withinSource.sources.map((s) => [s.source, s]));
    const cells = counted.map((src) => {
      const x = by.get(src)!;
      const base = `${f3(x.auroc)} [${f2(x.interval?.lo)}, ${f2(x.interval?.hi)}]`;
      if (!named.includes(src)) return base;
      const d = delta(groups.get(src)!, r.scored);
      figures[`refs>=${minRefs} ${r.name} ${src}`] = x.auroc ?? NaN;
      return `${base}; Δ ${d.value >= 0 ? '+' : ''}${d.value.toFixed(3)} ${d.interval ? `[${f2(d.interval.lo)}, ${f2(d.interval.hi)}]` : '[-]'}`;
    });
    const holds = named.every((n) => {
      const a = by.get(n)?.auroc ?? 0;
      return a >= 0.8 && singles(n).every((v) => a >= v - 1e-12);
    });
    const wt = r.sep.withinTask;
    console.log(`| ${r.name} | ${cells.join(' | ')} | ${f3(r.sep.withinSource.mean)} | ${f3(wt.auroc)} [${f2(wt.interval?.lo)}, ${f2(wt.interval?.hi)}] (${wt.pairs}) | ${holds ? 'yes' : 'no'} |`);
  }
  console.log(`\nchosen without each group:\n`);
  for (const r of results.filter((x) => !x.name.includes('no choice'))) console.log(`- ${r.name}: ${names.map((h) => `without ${h}: ${r.chosen.get(h)}`).join('; ')}`);
}
console.log(`\n${((Date.now() - started) / 1000).toFixed(0)} s`);
writeResult(jsonFile, { bench: 'pta-rules', command: commandLine(import.meta.url), machine: machine(), targets: [], figures });
