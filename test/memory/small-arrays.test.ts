/**
 * Lists a session keeps for its whole life are of exact size (memory/small-arrays.ts): `appended` and `exact` keep
 * what `push` and the array itself hold, and the waste trackers built on them answer every state of every real run
 * (and of one made of real states repeated), and keep the histories, that the trackers whose lists `push` grew did
 * (pushed-trackers.ts, their code before).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { EXACT_MAX, appended, exact } from '../../src/core/memory/small-arrays.js';
import { createCycleDetector } from '../../src/core/waste/cycles.js';
import { createRegressionTracker } from '../../src/core/waste/regression-loop.js';
import { createRetryEpisodeTracker } from '../../src/core/waste/retry-episodes.js';
import { corpusRuns, extraRuns, statesOf } from '../fixtures/corpus-runs.js';
import { pushedCycleDetector, pushedRegressionTracker, pushedRetryEpisodeTracker } from './pushed-trackers.js';

const item = fc.oneof(fc.integer(), fc.string(), fc.array(fc.integer(), { maxLength: 3 }), fc.constant(undefined));

describe('lists of exact size', () => {
  it('appended holds what push holds: a new array while short, the array itself pushed to once long', () => {
    fc.assert(
      fc.property(fc.array(item, { maxLength: 3 * EXACT_MAX }), (items) => {
        let kept: unknown[] = [];
        const pushed: unknown[] = [];
        for (const x of items) {
          const before = kept;
          kept = appended(kept, x);
          pushed.push(x);
          expect(kept).toEqual(pushed);
          // An item that is an array is one element, not spread.
          expect(kept[kept.length - 1]).toBe(x);
          if (before.length < EXACT_MAX) expect(kept).not.toBe(before);
          else expect(kept).toBe(before);
        }
      }),
      { numRuns: 200 },
    );
  });

  it('exact is a copy with the same elements, the one frozen empty array when empty', () => {
    fc.assert(
      fc.property(fc.array(item, { maxLength: 40 }), (items) => {
        const copy = exact(items);
        expect(copy).toEqual(items);
        if (items.length > 0) expect(copy).not.toBe(items);
      }),
    );
    expect(exact([])).toBe(exact([]));
    expect(Object.isFrozen(exact([]))).toBe(true);
  });
});

describe('waste trackers keeping exact-size lists', () => {
  it('answer every state of every real run, and keep the histories, that the trackers growing them by push did', () => {
    const found = { episodes: 0, loops: 0, runs: 0, longest: 0 };
    const runs = [...corpusRuns(), ...extraRuns()].map((run) => statesOf(run.steps));
    // No real run keeps a list past EXACT_MAX: one made of a real edit and a real failing test repeated does.
    const all = runs.flat();
    const edit = all.find((s) => s.stage === 'I' && s.changesFile && !s.failed && s.file !== undefined)!;
    const test = all.find((s) => s.stage === 'V' && s.failed && s.kind === 'run_test')!;
    const repeated = [...Array.from({ length: 20 }, () => [edit, test]).flat(), ...Array.from({ length: 20 }, () => test)];
    runs.push(repeated.map((s, t) => ({ ...s, t })));
    for (const states of runs) {
      const episodes = [createRetryEpisodeTracker(), pushedRetryEpisodeTracker()] as const;
      const loops = [createRegressionTracker(), pushedRegressionTracker()] as const;
      const cycles = [createCycleDetector(2, 4), pushedCycleDetector(2, 4)] as const;
      const wide = [createCycleDetector(1, 8), pushedCycleDetector(1, 8)] as const;
      for (const s of states) {
        // Each answer is compared as it is given (its lists grow later: a copy now, not the object).
        expect(JSON.stringify(episodes[0].add(s))).toBe(JSON.stringify(episodes[1].add(s)));
        expect(JSON.stringify(loops[0].add(s))).toBe(JSON.stringify(loops[1].add(s)));
        expect(JSON.stringify(cycles[0].add(s))).toBe(JSON.stringify(cycles[1].add(s)));
        expect(JSON.stringify(wide[0].add(s))).toBe(JSON.stringify(wide[1].add(s)));
      }
      expect(episodes[0].episodes()).toEqual(episodes[1].episodes());
      expect(loops[0].loops()).toEqual(loops[1].loops());
      expect(cycles[0].runs()).toEqual(cycles[1].runs());
      expect(wide[0].runs()).toEqual(wide[1].runs());
      found.episodes += episodes[0].episodes().length;
      found.loops += loops[0].loops().length;
      found.runs += cycles[0].runs().length + wide[0].runs().length;
      for (const r of [...cycles[0].runs(), ...wide[0].runs()]) found.longest = Math.max(found.longest, r.steps.length);
      for (const e of episodes[0].episodes()) found.longest = Math.max(found.longest, e.steps.length);
    }
    // The runs hold each kind, and lists longer than EXACT_MAX (pushed to, not copied), so both paths are compared.
    expect(found.episodes).toBeGreaterThan(0);
    expect(found.loops).toBeGreaterThan(0);
    expect(found.runs).toBeGreaterThan(0);
    expect(found.longest).toBeGreaterThan(EXACT_MAX);
  });
});
