/**
 * Columns grown a row a step by an eighth (memory/small-arrays.ts `withRoom`, bench/README.md "Memory per session,
 * eleventh pass" and "grow22"): the copies a column of 79 or 100 rows outgrows (its garbage) and the room it keeps at
 * 100 rows, counted; the copy holds what the array held, `push` fills its room, and the state columns and a session's
 * step lines and signals read back what was put in, whether trimmed (idle) between rows or not.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { UNIFORM_PRIOR } from '../../src/core/prior.js';
import { nextRoom, ROOM_MAX, withRoom } from '../../src/core/memory/small-arrays.js';
import { createScorer } from '../../src/core/scorer.js';
import { StateColumns } from '../../src/core/state/state-columns.js';
import type { Signal, State } from '../../src/core/types.js';
import { stepText } from '../../src/server/step-text.js';
import { defaultAnalyzers } from '../../src/syntax/index.js';
import { corpusRuns } from '../fixtures/corpus-runs.js';
import { priorSession } from './prior-session.js';
import { grownRoom, type Growth } from './room-growth.js';

const analyzers = defaultAnalyzers();
const item = fc.oneof(fc.integer(), fc.double(), fc.string(), fc.array(fc.integer(), { maxLength: 3 }), fc.constant(undefined));

describe('columns grown by an eighth', () => {
  it('withRoom copies the elements and the length; pushes up to the room are kept in order', () => {
    fc.assert(
      fc.property(fc.array(item, { maxLength: 60 }), fc.array(item, { maxLength: 40 }), (before, more) => {
        const copy = withRoom(before, before.length + more.length);
        expect(copy).not.toBe(before);
        expect(copy).toHaveLength(before.length);
        expect(copy).toEqual(before);
        for (const x of more) copy.push(x);
        expect(copy).toEqual([...before, ...more]);
      }),
      { numRuns: 200 },
    );
    // Room grows with the length (by an eighth plus 4) up to where push takes over.
    for (const n of [0, 1, 15, 16, 100, ROOM_MAX - 1]) expect(nextRoom(n)).toBe(n + Math.floor(n / 8) + 4);
  });

  it('a column grown to 79 or 100 rows outgrows fewer slots than by a sixteenth, and keeps at most 5 spare at 100', () => {
    /** Copies made and slots of the stores outgrown (garbage) growing a column row by row to `rows`, and its room then. */
    const grown = (rows: number): Growth => {
      let col: number[] = [];
      const out = grownRoom(rows, nextRoom, (n, room) => {
        if (room !== null) col = withRoom(col, room);
        col.push(n);
      });
      expect(col).toHaveLength(rows);
      return out;
    };
    // By a sixteenth: 15 copies and 507 slots outgrown at 79 rows (the ws-load run), 17 and 686 at 100 (room 103).
    expect(grown(79)).toEqual({ copies: 12, outgrown: 379, room: 90 });
    expect(grown(100)).toEqual({ copies: 13, outgrown: 469, room: 105 });
  });

  it('state columns give back every state of a real run, trimmed between any rows or not', () => {
    const scorer = createScorer({ reference: { kind: 'prior', prior: UNIFORM_PRIOR }, analyzers });
    const run = corpusRuns().reduce((a, b) => (b.steps.length > a.steps.length ? b : a));
    const built: State[] = run.steps.map((step) => scorer.push(step).state);
    expect(built.length).toBeGreaterThan(100);
    fc.assert(
      fc.property(fc.uniqueArray(fc.nat(built.length - 1), { maxLength: 8 }), (trims) => {
        const columns = new StateColumns();
        built.forEach((s, i) => {
          columns.push(s);
          if (trims.includes(i)) columns.trim();
          expect(columns.length).toBe(i + 1);
        });
        expect(columns.all()).toStrictEqual(built);
        expect(columns.at(built.length)).toBeUndefined();
      }),
      { numRuns: 12 },
    );
  });

  it("a session's step lines and signals are its steps' lines and the signal frames it sent, compacted between steps or not", () => {
    const run = corpusRuns().reduce((a, b) => (b.steps.length > a.steps.length ? b : a));
    for (const every of [0, 7]) {
      const session = priorSession();
      const lines: string[] = [];
      const signals: Signal[] = [];
      run.steps.forEach((step, seq) => {
        const copy = structuredClone(step);
        lines.push(stepText({ ...copy, t: seq }));
        const out = session.step(seq, JSON.parse(JSON.stringify(step)));
        if (out.kind !== 'accepted') throw new Error(out.kind);
        for (const f of out.frames) if (f.type === 'signal') signals.push({ t: f.t, kind: f.kind, severity: f.severity, steps: f.steps, message: f.message });
        if (every > 0 && seq % every === 3) expect(session.compact()).toBe(true);
        expect(session.stepTexts()).toHaveLength(seq + 1);
      });
      expect(session.stepTexts()).toEqual(lines);
      expect(signals.length).toBeGreaterThan(0);
      expect(session.signals).toEqual(signals);
    }
  });
});
