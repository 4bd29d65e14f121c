/**
 * zlib's deflates and inflates counted while a piece of a test runs (the texts a workspace keeps deflated), and a
 * run scored whole, compacted where asked: the oracles of the compaction and cold-file tests.
 */
import { UNIFORM_PRIOR } from '../../src/core/prior.js';
import { createScorer } from '../../src/core/scorer.js';
import type { Step } from '../../src/core/types.js';
import { defaultAnalyzers } from '../../src/syntax/index.js';

const analyzers = defaultAnalyzers();
const zlib = process.getBuiltinModule('node:zlib');

export interface ZlibCount {
  deflates: number;
  inflates: number;
}

/**
 * `f()`, its zlib calls added to `count`; with `noGain`, every deflate gives more bytes than it was given (so no
 * text is ever kept deflated: a workspace that never deflates).
 */
export function countingZlib<T>(count: ZlibCount, f: () => T, noGain = false): T {
  const deflate = zlib.deflateRawSync;
  const inflate = zlib.inflateRawSync;
  zlib.deflateRawSync = (...args: Parameters<typeof deflate>) => {
    count.deflates++;
    const z = deflate(...args);
    return noGain ? Buffer.concat([z, Buffer.alloc(Buffer.byteLength(args[0]) + 1)]) : z;
  };
  zlib.inflateRawSync = (...args: Parameters<typeof inflate>) => (count.inflates++, inflate(...args));
  try {
    return f();
  } finally {
    zlib.deflateRawSync = deflate;
    zlib.inflateRawSync = inflate;
  }
}

/** `f()` with the zlib calls it made. */
export function zlibCalls<T>(f: () => T, noGain = false): { value: T } & ZlibCount {
  const count = { deflates: 0, inflates: 0 };
  const value = countingZlib(count, f, noGain);
  return { value, ...count };
}

/** Every push result, then the states and the reports, of `steps` scored by one scorer, compacted after each step `compactAfter` names. */
export function scoredRun(steps: readonly Step[], compactAfter: (t: number) => boolean = () => false): string {
  const scorer = createScorer({ reference: { kind: 'prior', prior: UNIFORM_PRIOR }, analyzers });
  const out: unknown[] = [];
  steps.forEach((step, t) => {
    out.push(scorer.push(structuredClone(step)));
    if (compactAfter(t)) scorer.compact();
  });
  out.push(scorer.states(), scorer.report(false), scorer.report(true));
  return JSON.stringify(out);
}
