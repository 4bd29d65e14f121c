/**
 * Summarises a sampling heap profile written by `bench/alloc-sampler.ts`: KB allocated per step (the profile's
 * bytes over STEPS, the steps the profiled run handled), by function, self and inclusive.
 *
 *   node dist/bench/alloc-top.js FILE.heapprofile STEPS [TOP=30]
 */
import { readFileSync } from 'node:fs';
import { argsError, benchArgs, numberArg } from './args.js';

interface HeapNode {
  callFrame: { functionName: string; url: string; lineNumber: number };
  selfSize: number;
  children: HeapNode[];
}

const [file, stepsArg, topArg, ...more] = benchArgs({ allowPositionals: true }, 'node dist/bench/alloc-top.js FILE.heapprofile STEPS [TOP=30]').positionals;
if (file === undefined || stepsArg === undefined || more.length > 0) argsError('give FILE.heapprofile STEPS [TOP]');
const steps = numberArg(stepsArg, 'STEPS', 'positive integer');
const top = numberArg(topArg, 'TOP', 'positive integer', 30);
const head = (JSON.parse(readFileSync(file, 'utf8')) as { head: HeapNode }).head;
const key = (n: HeapNode): string => `${n.callFrame.functionName || '(anonymous)'} ${n.callFrame.url.split('/').slice(-2).join('/')}:${n.callFrame.lineNumber + 1}`;
const self = new Map<string, number>();
const inclusive = new Map<string, number>();
let total = 0;
const walk = (n: HeapNode, stack: readonly string[]): void => {
  const k = key(n);
  total += n.selfSize;
  self.set(k, (self.get(k) ?? 0) + n.selfSize);
  // A function on the stack twice (recursion) counts once.
  for (const s of new Set([...stack, k])) inclusive.set(s, (inclusive.get(s) ?? 0) + n.selfSize);
  for (const c of n.children) walk(c, [...stack, k]);
};
walk(head, []);
const kb = (bytes: number): string => (bytes / 1024 / steps).toFixed(2).padStart(8);
console.log(`${file}: ${(total / 2 ** 20).toFixed(1)} MB sampled over ${steps} steps = ${kb(total).trim()} KB per step`);
for (const [title, map] of [
  ['self', self],
  ['inclusive', inclusive],
] as const) {
  console.log(`-- KB per step, ${title}`);
  for (const [k, v] of [...map].sort((a, b) => b[1] - a[1]).slice(0, top)) console.log(`${kb(v)}  ${k}`);
}
