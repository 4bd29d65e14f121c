/**
 * mem18 (bench/README.md, "the fifteenth memory pass"): the retry history's last step per hash, the change log's
 * last change per file and the labeler's file flags are key tables, not `Map`s, and answer as the `Map`s did on
 * every real run; path contexts and their resolvers are shared by labelers (runs of one harness meet the same
 * roots and directories), and hand out what a labeler of its own made.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Labeler } from '../../src/core/labeler/labeler.js';
import { KeyTable } from '../../src/core/memory/key-table.js';
import { stepFailed } from '../../src/core/state/failure.js';
import { createRetryDetector, REPEAT_EXEMPT_KINDS } from '../../src/core/signals/repeats.js';
import type { State, Step } from '../../src/core/types.js';
import { defaultAnalyzers } from '../../src/syntax/index.js';
import { corpusRuns, statesOf } from '../fixtures/corpus-runs.js';

const analyzers = defaultAnalyzers();

/** The retry detector as it was before mem18, with its two `Map`s (src/core/signals/repeats.ts at `da5cc84`). */
function mapRetries(): (s: State) => number | undefined {
  let lastSeen = new Map<string, number>();
  let lastAny = -1;
  let lastTree = -1;
  const lastFile = new Map<string, number>();
  const record = (s: State): void => {
    if (s.changesFile) {
      lastAny = s.t;
      if (s.file === undefined) lastTree = s.t;
      else lastFile.set(s.file, s.t);
    }
    if (s.changesEnv === true) {
      lastAny = s.t;
      if (s.kind !== 'install') lastTree = s.t;
    }
  };
  const fileScoped = (s: State): boolean => s.file !== undefined && (s.kind === 'read' || (!s.command && (s.kind === 'edit' || s.kind === 'create')));
  const changedSince = (s: State, t: number): boolean => (fileScoped(s) ? Math.max(lastTree, lastFile.get(s.file!) ?? -1) > t : lastAny > t);
  return (state) => {
    if (state.kind === 'finish') lastSeen = new Map();
    if (REPEAT_EXEMPT_KINDS.has(state.kind)) {
      record(state);
      return undefined;
    }
    const prev = state.variant === true ? undefined : lastSeen.get(state.hash);
    const retryOf = prev !== undefined && !changedSince(state, prev) ? prev : undefined;
    lastSeen.set(state.hash, state.t);
    if (retryOf === undefined) record(state);
    return retryOf;
  };
}

describe('history tables (mem18)', () => {
  it('a key table of any strings gets and swaps as a Map does (paths with long common prefixes, growth past 8 slots)', () => {
    const key = fc.oneof(
      fc.integer({ min: 0, max: 40 }).map((i) => `src/package/module/sub/file_${i}.py`),
      fc.string({ maxLength: 30 }),
    );
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.boolean(), key, fc.integer({ min: -1, max: 5000 })), { maxLength: 200 }), (ops) => {
        const table = new KeyTable(8, 'any');
        const map = new Map<string, number>();
        for (const [write, k, v] of ops) {
          if (write) {
            expect(table.swap(k, v)).toBe(map.get(k));
            map.set(k, v);
          } else expect(table.get(k)).toBe(map.get(k));
        }
        expect(table.size).toBe(map.size);
      }),
      { numRuns: 100 },
    );
  });

  it('fills tables of up to 64 slots to seven eighths, larger ones to three quarters', () => {
    expect([7, 8, 14, 15, 28, 29, 56, 57, 96, 97].map((n) => KeyTable.slotsFor(n))).toEqual([16, 16, 16, 24, 32, 48, 64, 96, 128, 192]);
    const table = new KeyTable(8, 'any');
    for (let i = 0; i < 28; i++) table.swap(`src/pkg/module_${i}.py`, i);
    expect((table as unknown as { keys: unknown[] }).keys.length).toBe(32);
    for (let i = 0; i < 28; i++) expect(table.get(`src/pkg/module_${i}.py`)).toBe(i);
    expect(table.get('src/pkg/module_28.py')).toBeUndefined();
  });

  it('answers every state of every real run as the Maps did, and keeps its histories in key tables', () => {
    let states = 0;
    let retries = 0;
    for (const run of corpusRuns()) {
      const old = mapRetries();
      const detector = createRetryDetector();
      for (const state of statesOf(run.steps)) {
        const want = old(state);
        expect(detector.add(state), `${run.name} step ${state.t}`).toBe(want);
        states++;
        if (want !== undefined) retries++;
      }
      const fields = detector as unknown as { lastSeen: unknown; changes: { lastFile: unknown } };
      expect(fields.lastSeen).toBeInstanceOf(KeyTable);
      expect(fields.changes.lastFile).toBeInstanceOf(KeyTable);
    }
    expect(states).toBeGreaterThan(1000);
    expect(retries).toBeGreaterThan(10);
  });

  it("keeps the labeler's file flags in a key table, each set answering as its own Set did", () => {
    for (const run of corpusRuns().slice(0, 12)) {
      const labeler = new Labeler(analyzers.shell);
      for (const step of run.steps) labeler.label(step, stepFailed(step));
      const h = labeler.history;
      expect((h as unknown as { flags: unknown }).flags).toBeInstanceOf(KeyTable);
    }
    const h = new Labeler(analyzers.shell).history;
    h.seen.add('a.py').add('b.py');
    h.modified.add('b.py');
    h.created.add('c.py');
    expect(['a.py', 'b.py', 'c.py', 'd.py'].map((f) => [h.seen.has(f), h.modified.has(f), h.created.has(f), h.touched(f)])).toEqual([
      [true, false, false, false],
      [true, true, false, true],
      [false, false, true, true],
      [false, false, false, false],
    ]);
  });

  it('shares path contexts between labelers, equal to what each made alone, and not across roots or for long paths', () => {
    const step = (t: number, command: string, cwd: string): Step => ({ t, tool: 'bash', cwd, action: { kind: 'shell', command } });
    const a = new Labeler(analyzers.shell);
    const b = new Labeler(analyzers.shell);
    const pa = a.label(step(0, 'cd /testbed/src && ls', '/testbed'), false).paths;
    const pb = b.label(step(0, 'cd /testbed/src && ls', '/testbed'), false).paths;
    expect(pb).toEqual(pa);
    expect(pb).toBe(pa);
    const other = new Labeler(analyzers.shell).label(step(0, 'cd /repo/src && ls', '/repo'), false).paths;
    expect(other).not.toBe(pa);
    const long = `/testbed/${'d'.repeat(600)}`;
    const la = new Labeler(analyzers.shell).label(step(0, 'ls', long), false).paths;
    const lb = new Labeler(analyzers.shell).label(step(0, 'ls', long), false).paths;
    expect(lb).toEqual(la);
    expect(lb).not.toBe(la);
  });
});
