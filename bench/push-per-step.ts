/**
 * Micro-benchmark: cost of `Scorer.push` per step over the longest real
 * trajectory of the shared corpus (SWE-agent and mini-swe-agent logs), scored
 * reference-free and against a PTA. Prints median and p99 µs/step. No assertions.
 *
 *   npm run bench            (builds, then node dist/bench/push-per-step.js)
 *   node dist/bench/push-per-step.js [CORPUS_DIR] [RUNS]
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildPta } from '../src/core/pta/index.js';
import { UNIFORM_PRIOR } from '../src/core/prior.js';
import { createScorer } from '../src/core/scorer.js';
import type { Reference } from '../src/core/scorer-api.js';
import type { Step } from '../src/core/types.js';
import { miniSweAgentParser } from '../src/formats/mini-swe-agent.js';
import { sweAgentParser } from '../src/formats/swe-agent.js';
import { defaultAnalyzers } from '../src/syntax/index.js';

function findCorpus(): string {
  let dir = path.dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const candidate = path.resolve(dir, '../shared/corpus');
    if (existsSync(candidate)) return candidate;
    const up = path.dirname(dir);
    if (up === dir) throw new Error('shared/corpus not found above the bench script; pass it as the first argument');
    dir = up;
  }
}

function* files(dir: string): Generator<string> {
  for (const name of readdirSync(dir)) {
    const p = path.join(dir, name);
    if (statSync(p).isDirectory()) yield* files(p);
    else if (name.endsWith('.traj') || name.endsWith('.traj.json')) yield p;
  }
}

function longestTrajectory(corpus: string): { file: string; steps: Step[] } {
  let best = { file: '', steps: [] as Step[] };
  for (const file of files(corpus)) {
    let doc: unknown;
    try {
      doc = JSON.parse(readFileSync(file, 'utf8'));
    } catch {
      continue;
    }
    const parser = [sweAgentParser, miniSweAgentParser].find((p) => p.detect(doc));
    const steps = parser?.parse(doc).steps ?? [];
    if (steps.length > best.steps.length) best = { file, steps };
  }
  return best;
}

function quantile(sorted: readonly number[], q: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? Number.NaN;
}

function bench(label: string, steps: readonly Step[], reference: Reference, runs: number): void {
  const analyzers = defaultAnalyzers();
  const times: number[] = [];
  for (let r = 0; r < runs + 10; r++) {
    const scorer = createScorer({ reference, analyzers });
    for (const step of steps) {
      const t0 = process.hrtime.bigint();
      scorer.push(step);
      const dt = Number(process.hrtime.bigint() - t0) / 1000;
      if (r >= 10) times.push(dt);
    }
  }
  times.sort((a, b) => a - b);
  console.log(`${label.padEnd(22)} median ${quantile(times, 0.5).toFixed(1)} µs/step   p99 ${quantile(times, 0.99).toFixed(1)} µs/step   (${times.length} pushes)`);
}

const corpus = process.argv[2] ?? findCorpus();
const runs = Number(process.argv[3] ?? 200);
const { file, steps } = longestTrajectory(corpus);
console.log(`command: node ${path.relative(process.cwd(), fileURLToPath(import.meta.url))} ${process.argv.slice(2).join(' ')}`.trim());
console.log(`trajectory: ${path.relative(corpus, file)} (${steps.length} steps), ${runs} runs after 10 warm-up runs`);
const prior: Reference = { kind: 'prior', prior: UNIFORM_PRIOR };
const probe = createScorer({ reference: prior, analyzers: defaultAnalyzers() });
for (const s of steps) probe.push(s);
const self = [...probe.states()];
bench('reference-free (prior)', steps, prior, runs);
bench('PTA (2 self copies)', steps, { kind: 'pta', pta: buildPta('bench', [self, self]) }, runs);
