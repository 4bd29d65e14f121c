// fcast30: CPU µs a step of the forecaster's parts alone (outside the scorer), on the longest corpus run's states and
// labels made beforehand, each part a loop over the run's steps, parts in rotation (reversed every other round), the
// first fifth of the rounds dropped; printed over a bare loop over the same rows.
//   node bench/fcast30/parts.mjs [ROUNDS=1500] [PARTS=loop,forecaster,...]
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
const root = process.env.ROOT ?? fileURLToPath(new URL('../..', import.meta.url));
const core = `${root}/dist/src/core`;
const { parseForecast } = await import(`${core}/forecast/model.js`);
const { UNIFORM_PRIOR } = await import(`${core}/prior.js`);
const { createScorer } = await import(`${core}/scorer.js`);
const { compileModel, createForecaster, pPassOf } = await import(`${core}/forecast/forecaster.js`);
const { createFeatureTracker } = await import(`${core}/forecast/features.js`);
const { createEvidenceTracker } = await import(`${core}/evidence/evidence.js`);
const { emptyStepEvidence, READ, stepEvidence } = await import(`${core}/evidence/step-evidence.js`);
const { scanTestLines } = await import(`${core}/evidence/test-lines.js`);
const { createRetryDetector } = await import(`${core}/signals/repeats.js`);
const { defaultAnalyzers } = await import(`${root}/dist/src/syntax/index.js`);
const { findCorpus, loadCorpus, longest } = await import(`${root}/dist/bench/corpus.js`);
const model = parseForecast(JSON.parse(readFileSync(`${root}/data/forecast.json`, 'utf8'))).value.models[0];
const compiled = compileModel(model);
const t = longest(loadCorpus(findCorpus()).trajectories);
const scorer = createScorer({ reference: { kind: 'prior', prior: UNIFORM_PRIOR }, analyzers: defaultAnalyzers() });
const rows = t.steps.map((s) => {
  const r = scorer.push(s);
  return [s, r.state, r.label];
});
const terminal = (k) => k === 'shell' || k === 'code' || k === 'other';
const outputs = rows.map(([s]) => (terminal(s.action.kind) ? (s.observation ?? '') : '')).filter((o) => o !== '');
const scratch = new Float64Array(64);
const parts = {
  loop: () => rows.reduce((x, r) => x + r[1].t, 0),
  // The whole 'model' forecaster, with a retry detector of its own (in the scorer it shares the scorer's).
  forecaster: () => {
    const f = createForecaster(model);
    let x = 0;
    for (const [s, st, l] of rows) x += f.add(s, st, l);
    return x;
  },
  retryOnly: () => {
    const r = createRetryDetector();
    for (const [, st] of rows) r.add(st);
    return 0;
  },
  featuresNoEvidence: () => {
    const f = createFeatureTracker(false);
    for (const [s, st, l] of rows) {
      f.add(s, st, l);
      f.write(scratch);
    }
    return 0;
  },
  featuresAdd: () => {
    const f = createFeatureTracker(model.features);
    for (const [s, st, l] of rows) f.add(s, st, l);
    return 0;
  },
  featuresAddWrite: () => {
    const f = createFeatureTracker(model.features);
    for (const [s, st, l] of rows) {
      f.add(s, st, l);
      f.write(scratch);
    }
    return 0;
  },
  featuresAddWritePPass: () => {
    const f = createFeatureTracker(model.features);
    let x = 0;
    for (const [s, st, l] of rows) {
      f.add(s, st, l);
      x += pPassOf(compiled, f.write(scratch));
    }
    return x;
  },
  evidence: () => {
    const e = createEvidenceTracker(model.features);
    for (const [s, st, l] of rows) {
      e.add(s, st, l);
      e.write(scratch, 21);
    }
    return 0;
  },
  stepEvidence: () => {
    const into = emptyStepEvidence();
    for (const [s, st, l] of rows) stepEvidence(s, st, l, READ.tests | READ.patch, into);
    return 0;
  },
  scan: () => outputs.reduce((m, o) => m | scanTestLines(o), 0),
};
const rounds = Number(process.argv[2] ?? 1500);
const names = (process.argv[3] ?? Object.keys(parts).join(',')).split(',');
const cpu = Object.fromEntries(names.map((n) => [n, 0]));
let sink = 0;
for (let i = 0; i < rounds; i++) {
  for (const n of i % 2 ? names : [...names].reverse()) {
    const c0 = process.cpuUsage();
    for (let k = 0; k < 5; k++) sink += parts[n]();
    const c = process.cpuUsage(c0);
    if (i >= rounds / 5) cpu[n] += c.user + c.system;
  }
}
const per = (n) => cpu[n] / (rounds * 0.8 * 5 * rows.length);
const bare = names.includes('loop') ? per('loop') : 0;
for (const n of names) console.log(`${n.padEnd(22)} ${(per(n) - bare).toFixed(3)} µs a step${n === 'loop' ? '' : ' over the loop'}`);
console.log(`(${rows.length} steps, ${outputs.length} terminal outputs; sink ${Number.isFinite(sink)})`);
