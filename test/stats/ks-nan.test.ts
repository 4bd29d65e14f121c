/**
 * ksTwoSample on a NaN once looped forever (`report --forecast` with a NaN pPass never finished): the merge
 * compares against min(x, y), and nothing is <= NaN. A loop cannot be timed out in the test's own thread, so the
 * function runs in a worker that is terminated after a deadline.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { buildSync } from 'esbuild';
import { describe, expect, it } from 'vitest';

const KS = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../src/core/stats/ks.ts');

/** ksTwoSample(a, b) in a worker: its JSON, or 'timeout' after `ms`. */
async function ksInWorker(a: number[], b: number[], ms = 5000): Promise<string> {
  const bundle = buildSync({ entryPoints: [KS], bundle: true, format: 'iife', globalName: 'ks', write: false, platform: 'node' }).outputFiles[0]!.text;
  const args = JSON.stringify([a.map(String), b.map(String)]);
  const code = `${bundle}\nconst [a, b] = ${args}.map((xs) => xs.map(Number));\nrequire('node:worker_threads').parentPort.postMessage(JSON.stringify(ks.ksTwoSample(a, b)));`;
  const worker = new Worker(code, { eval: true });
  try {
    return await new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => resolve('timeout'), ms);
      worker.once('message', (m: string) => {
        clearTimeout(timer);
        resolve(m);
      });
      worker.once('error', (e) => {
        clearTimeout(timer);
        reject(e);
      });
    });
  } finally {
    await worker.terminate();
  }
}

describe('ksTwoSample on non-finite values', () => {
  it('returns null for a NaN or an infinity, and does not loop', async () => {
    expect(await ksInWorker([NaN, NaN], [NaN])).toBe('null');
    expect(await ksInWorker([0.2, NaN], [0.1, 0.5])).toBe('null');
    expect(await ksInWorker([0.2, Infinity], [0.1])).toBe('null');
    expect((JSON.parse(await ksInWorker([1, 2, 3], [4, 5])) as { d: number }).d).toBe(1);
  }, 30_000);
});
