/**
 * Micro-benchmark: µs per labelled step (labeler + state builder, tree-sitter
 * parsing included) over every terminal command of the corpus's
 * mini-swe-agent 1.1 trajectories. Reports a cold pass (fresh shell-parse
 * cache) and warm passes. No assertions.
 *
 *   npm run build && node dist/bench/label-per-step.js [CORPUS_DIR] [RUNS]
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { labelSteps } from '../src/core/state-builder.js';
import type { Step } from '../src/core/types.js';
import { createPythonScopeResolver, createShellAnalyzer } from '../src/syntax/index.js';

function findCorpus(): string {
  let dir = path.dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const candidate = path.resolve(dir, '../shared/corpus');
    if (existsSync(candidate)) return candidate;
    const up = path.dirname(dir);
    if (up === dir) throw new Error('shared/corpus not found; pass it as the first argument');
    dir = up;
  }
}

function walk(dir: string, out: string[]): void {
  for (const name of readdirSync(dir)) {
    const p = path.join(dir, name);
    if (statSync(p).isDirectory()) walk(p, out);
    else if (name.endsWith('.traj.json')) out.push(p);
  }
}

function trajectories(corpus: string): Step[][] {
  const files: string[] = [];
  walk(corpus, files);
  const result: Step[][] = [];
  for (const f of files) {
    const d = JSON.parse(readFileSync(f, 'utf8')) as { messages?: Array<{ role: string; tool_calls?: Array<{ function: { arguments: string } }> }> };
    const steps: Step[] = [];
    for (const m of d.messages ?? []) {
      for (const c of m.role === 'assistant' ? (m.tool_calls ?? []) : []) {
        try {
          const args = JSON.parse(c.function.arguments) as { command?: string };
          if (typeof args.command === 'string') steps.push({ t: steps.length, tool: 'bash', cwd: '/testbed', action: { kind: 'shell', command: args.command } });
        } catch {
          /* a malformed tool call is not a benchmark input */
        }
      }
    }
    if (steps.length > 0) result.push(steps);
  }
  return result;
}

const corpus = process.argv[2] ?? findCorpus();
const runs = Number(process.argv[3] ?? 20);
const trajs = trajectories(corpus);
const total = trajs.reduce((n, t) => n + t.length, 0);
const analyzers = { shell: createShellAnalyzer(), scope: createPythonScopeResolver() };

function pass(): number {
  const start = process.hrtime.bigint();
  for (const t of trajs) labelSteps(t, analyzers);
  return Number(process.hrtime.bigint() - start) / 1000 / total;
}

const cold = pass();
const warm: number[] = [];
for (let i = 0; i < runs; i++) warm.push(pass());
warm.sort((a, b) => a - b);
console.log(`trajectories: ${trajs.length}, steps: ${total}`);
console.log(`cold pass (empty parse cache): ${cold.toFixed(2)} µs/step`);
console.log(`warm passes (${runs}): median ${warm[Math.floor(runs / 2)]?.toFixed(2)} µs/step, best ${warm[0]?.toFixed(2)} µs/step`);
