// fcast30: CPU µs a `Scorer.push` without and with the bundled forecast model (data/forecast.json), passes over the
// longest corpus run in blocks none, model, model, none in one process (forecast-push.ts's order), the first quarter of
// the passes dropped. ROOT: the checkout whose dist is measured (default: this one; an ablation copy: ablate.sh).
//   node bench/fcast30/push-cpu.mjs [both|none|model] [PASSES=1200]
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
const here = fileURLToPath(new URL('../..', import.meta.url));
const root = process.env.ROOT ?? here;
const { parseForecast } = await import(`${root}/dist/src/core/forecast/model.js`);
const { UNIFORM_PRIOR } = await import(`${root}/dist/src/core/prior.js`);
const { createScorer } = await import(`${root}/dist/src/core/scorer.js`);
const { defaultAnalyzers } = await import(`${root}/dist/src/syntax/index.js`);
const { findCorpus, loadCorpus, longest } = await import(`${here}/dist/bench/corpus.js`);
const model = parseForecast(JSON.parse(readFileSync(`${here}/data/forecast.json`, 'utf8'))).value.models[0];
const t = longest(loadCorpus(findCorpus()).trajectories);
const prior = { kind: 'prior', prior: UNIFORM_PRIOR };
const analyzers = defaultAnalyzers();
const variant = process.argv[2] ?? 'both';
const passes = Number(process.argv[3] ?? 1200);
const make = { none: () => createScorer({ reference: prior, analyzers }), model: () => createScorer({ reference: prior, analyzers, forecast: model }) };
const order = variant === 'both' ? ['none', 'model', 'model', 'none'] : [variant];
const sum = { none: 0, model: 0 };
const count = { none: 0, model: 0 };
let sink = 0;
for (let i = 0; i < passes; i++) {
  const v = order[i % order.length];
  const s = make[v]();
  const c0 = process.cpuUsage();
  for (const step of t.steps) sink += s.push(step).reward;
  const c = process.cpuUsage(c0);
  if (i >= passes / 4) {
    sum[v] += c.user + c.system;
    count[v] += t.steps.length;
  }
}
const per = (v) => sum[v] / count[v];
const line = Object.keys(sum)
  .filter((v) => count[v] > 0)
  .map((v) => `${v} ${per(v).toFixed(3)}`);
if (count.none > 0 && count.model > 0) line.push(`ratio ${(per('model') / per('none')).toFixed(3)}`);
console.log(`${line.join(' ')} (CPU µs a push; ${t.steps.length} steps; sink ${Number.isFinite(sink)})`);
