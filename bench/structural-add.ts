/**
 * Micro-benchmark: cost of one StructuralTracker.add (equivalence checks +
 * path pointers + one augmenting-path search) and one TemporalTracker step
 * against a PTA of about 100 nodes. Prints numbers; asserts nothing.
 *
 * States are generated from a seeded PRNG with the shape of real trajectories
 * (a pool of files, line ranges, scopes, command tokens, E/I/V/O mix).
 */
import { DEFAULT_TAU } from '../src/core/equivalence.js';
import { buildPta } from '../src/core/pta/index.js';
import { createStructuralTracker } from '../src/core/signals/structural.js';
import { createTemporalTracker, referenceWindows } from '../src/core/signals/temporal.js';
import type { Stage, State } from '../src/core/types.js';

function prng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

const WORDS = ['grep', '-rn', 'python', '-m', 'pytest', 'sed', '-n', 'cat', 'ls', 'find', '.', '-name', 'src', 'tests', 'def', 'class'];

function trajectory(rand: () => number, length: number): State[] {
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rand() * xs.length)] as T;
  const stages: Stage[] = ['E', 'E', 'E', 'I', 'V', 'V', 'O'];
  return Array.from({ length }, (_, t) => {
    const file = `pkg/mod${Math.floor(rand() * 15)}.py`;
    const start = 1 + Math.floor(rand() * 400);
    const command = rand() < 0.5;
    const s: State = {
      t,
      stage: pick(stages),
      kind: command ? 'run_other' : 'read',
      tool: 'bash',
      hash: `h${Math.floor(rand() * 1e6)}`,
      tokens: command ? [...new Set(Array.from({ length: 4 }, () => pick(WORDS)))].sort() : [],
      command,
      changesFile: false,
      failed: false,
      cost: 100,
      unknown: false,
    };
    if (rand() < 0.7) s.file = file;
    if (s.file !== undefined && rand() < 0.6) s.range = [start, start + Math.floor(rand() * 60)];
    if (s.file !== undefined && rand() < 0.3) s.scope = `${file}::f${Math.floor(rand() * 5)}`;
    return s;
  });
}

const rand = prng(42);
const pta = buildPta('bench', [trajectory(rand, 40), trajectory(rand, 40), trajectory(rand, 40)]);
const candidate = trajectory(rand, 200);
const rounds = 200;

let sink = 0;
const t0 = process.hrtime.bigint();
for (let r = 0; r < rounds; r++) {
  const tracker = createStructuralTracker(pta, DEFAULT_TAU);
  for (const s of candidate) {
    tracker.add(s);
    sink += tracker.struct() + tracker.cov();
  }
}
const t1 = process.hrtime.bigint();
const windows = referenceWindows(pta);
for (let r = 0; r < rounds; r++) {
  const tracker = createTemporalTracker(windows, 0.01);
  for (const s of candidate) {
    tracker.add(s.stage);
    sink += tracker.value();
  }
}
const t2 = process.hrtime.bigint();
const adds = rounds * candidate.length;
const nonO = pta.nodes.filter((n) => n.state !== null && n.state.stage !== 'O').length;
console.log(`PTA: ${pta.nodes.length - 1} nodes (${nonO} non-O), ${pta.references.length} references`);
console.log(`structural add + struct() + cov(): ${(Number(t1 - t0) / 1e3 / adds).toFixed(2)} µs per step (${adds} steps)`);
console.log(`temporal add + value():           ${(Number(t2 - t1) / 1e3 / adds).toFixed(2)} µs per step`);
if (Number.isNaN(sink)) console.log('unreachable');
