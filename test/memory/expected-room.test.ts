/**
 * A session's columns and hash tables grown toward the steps it is expected to reach (its PTA's reference runs'
 * median, core/pta/expected-states.ts; bench/README.md "gc27"): each store outgrown is garbage that lived long enough
 * to be promoted with many sessions stepping in turn. Counted on ws-load's 79-step run against its task's PTA
 * (references of 62 and 82 states): the copies its columns and tables make, the room kept at 100 rows (unchanged),
 * the room an ended session short of the steps expected drops, and the frames (unchanged).
 */
import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { SERVER_BENCH_FILE, SERVER_BENCH_TASK } from '../../bench/corpus.js';
import { hashSlots } from '../../src/core/memory/key-table.js';
import { nextRoom, nextRoomToward } from '../../src/core/memory/small-arrays.js';
import { DEFAULT_POLICY } from '../../src/core/policy.js';
import { expectedStates } from '../../src/core/pta/expected-states.js';
import { ptaFromJson } from '../../src/core/pta/json.js';
import type { Pta } from '../../src/core/scorer-api.js';
import { createScorer } from '../../src/core/scorer.js';
import type { Step } from '../../src/core/types.js';
import { resolveOptions } from '../../src/server/options.js';
import { LOCAL_PRINCIPAL } from '../../src/server/principal.js';
import { buildSession } from '../../src/server/session-factory.js';
import { defaultAnalyzers } from '../../src/syntax/index.js';
import { corpusRuns } from '../fixtures/corpus-runs.js';
import { grownRoom, type Growth } from './room-growth.js';

const analyzers = defaultAnalyzers();

function taskPta(): Pta {
  const parsed = ptaFromJson(JSON.parse(readFileSync(`data/example/${SERVER_BENCH_TASK}.json`, 'utf8')));
  if (!parsed.ok) throw new Error(parsed.error);
  return parsed.value;
}

function benchRun(): Step[] {
  const run = corpusRuns().find((r) => r.name === `${SERVER_BENCH_FILE}#0`);
  if (run === undefined) throw new Error(`${SERVER_BENCH_FILE} is not in the test corpus`);
  return run.steps;
}

/** The rungs of {@link nextRoom} from 0 up to `max`. */
function ladder(max: number): Set<number> {
  const out = new Set<number>([0]);
  for (let r = 0; r <= max; r = nextRoom(r)) out.add(nextRoom(r));
  return out;
}

/** Copies made and slots outgrown growing a column row by row to `rows` toward `expected`, and its room then. */
const grown = (rows: number, expected: number): Growth => grownRoom(rows, (n) => nextRoomToward(n, expected));

describe('stores grown toward the steps expected', () => {
  it("expects the median of the PTA's reference lengths, again once a reference is added in place", () => {
    const pta = taskPta();
    expect(pta.references.map((r) => r.length)).toEqual([62, 82]);
    expect(expectedStates(pta)).toBe(72);
    pta.references.push({ length: 30, implTargets: 1 });
    expect(expectedStates(pta)).toBe(62);
    expect(expectedStates({ ...pta, references: [] })).toBe(0);
  });

  it("jumps only to nextRoom's rungs, within what a store of the length keeps, and grows as before past the steps expected", () => {
    const rungs = ladder(1 << 16);
    const lengths = [...rungs].filter((r) => r <= 5000);
    fc.assert(
      // A column asks at a length equal to the room it had: a rung.
      fc.property(fc.constantFrom(...lengths), fc.nat(5000), (length, expected) => {
        const room = nextRoomToward(length, expected);
        expect(rungs.has(room)).toBe(true);
        expect(room >= nextRoom(length)).toBe(true);
        // V8 trims a store of twice the length plus 16 or more when the length is set back (small-arrays.ts).
        if (room > nextRoom(length)) expect(room).toBeLessThanOrEqual(2 * length + 15);
        if (expected <= nextRoom(length)) expect(room).toBe(nextRoom(length));
      }),
      { numRuns: 500 },
    );
    // ws-load's 79-step run against references of 62 and 82: copied at 0, 13, 38 and 77 rows, not 11 times (379 slots).
    expect(grown(79, 72)).toEqual({ copies: 4, outgrown: 128, room: 90 });
    expect(grown(79, 0)).toEqual({ copies: 12, outgrown: 379, room: 90 });
    // The memory bench's 100-step sessions keep the same room.
    expect(grown(100, 72).room).toBe(grown(100, 0).room);
  });

  it("a scorer against the run's PTA copies its states' columns 4 times and each table of action hashes once", () => {
    const count = (pta: Pta): { columns: number; tables: string } => {
      const scorer = createScorer({ reference: { kind: 'pta', pta }, analyzers }) as unknown as {
        columns: { room: number };
        builder: { variants: { last: { keys: unknown[] } } };
        retry: { inner: { lastSeen: { keys: unknown[] } } };
        push: (s: Step) => unknown;
      };
      // Slots of the variant table and the retry history as they change (the run's last step, a finish, starts a new history).
      const seen: string[] = [];
      const note = (): void => {
        const now = `${scorer.builder.variants.last.keys.length}/${scorer.retry.inner.lastSeen.keys.length}`;
        if (seen.at(-1) !== now) seen.push(now);
      };
      note();
      let rooms = 0;
      let room = -1;
      for (const step of benchRun()) {
        scorer.push(structuredClone(step));
        note();
        if (scorer.columns.room !== room) rooms++;
        room = scorer.columns.room;
      }
      return { columns: rooms, tables: seen.join(' ') };
    };
    const pta = taskPta();
    // Lengths of 0: no steps expected, all else alike.
    const unknown = { ...pta, references: pta.references.map((r) => ({ ...r, length: 0 })) };
    expect(hashSlots(72)).toBe(64);
    // Each table copied once (64 to 96 slots) instead of 7 times.
    expect(count(pta)).toEqual({ columns: 4, tables: '64/64 96/96 96/8' });
    expect(count(unknown)).toEqual({ columns: 12, tables: '16/8 16/12 16/16 24/24 32/32 48/48 64/64 96/96 96/8' });
  });

  it('a session ended short of the steps expected drops the room grown toward them; one past them keeps what it had; frames alike', async () => {
    const pta = taskPta();
    const steps = benchRun();
    const session = (p: Pta) =>
      buildSession(
        { id: 's', task: SERVER_BENCH_TASK, format: 'steplens', learn: false, policy: DEFAULT_POLICY, reference: { kind: 'pta', pta: p }, principal: LOCAL_PRINCIPAL },
        analyzers,
        resolveOptions({}),
        0,
      );
    const rooms = (s: ReturnType<typeof session>) => {
      const x = s as unknown as { textRoom: number; endedStates?: { room: number }; scorer?: { columns: { room: number } } };
      return { texts: x.textRoom, states: (x.endedStates ?? x.scorer!.columns).room };
    };
    for (const [n, live, ended] of [
      [30, { texts: 38, states: 38 }, { texts: 30, states: 30 }],
      [79, { texts: 90, states: 90 }, { texts: 90, states: 90 }],
    ] as const) {
      const s = session(pta);
      const plain = session({ ...pta, references: pta.references.map((r) => ({ ...r, length: 0 })) });
      // Chunks of the frame log copied to grow (16, 32, 64 numbers), against the plain session's.
      const chunks = (x: ReturnType<typeof session>): number[][] => (x as unknown as { log: { chunks: number[][] } }).log.chunks;
      const copies = [0, 0];
      for (let seq = 0; seq < n; seq++) {
        const before = [s, plain].map((x) => [chunks(x).length, chunks(x).at(-1)] as const);
        const a = s.step(seq, JSON.parse(JSON.stringify(steps[seq])));
        const b = plain.step(seq, JSON.parse(JSON.stringify(steps[seq])));
        if (a.kind !== 'accepted' || b.kind !== 'accepted') throw new Error(`${a.kind} ${b.kind}`);
        expect(JSON.stringify(a.frames)).toBe(JSON.stringify(b.frames));
        [s, plain].forEach((x, i) => {
          if (chunks(x).length === before[i]![0] && chunks(x).at(-1) !== before[i]![1]) copies[i]!++;
        });
      }
      // The chunk begun when the rows expected no longer fill it grows as before.
      expect(copies).toEqual(n === 79 ? [2, 8] : [0, 4]);
      expect(rooms(s)).toEqual(live);
      const texts = s.stepTexts().slice();
      const states = s.states();
      s.release();
      expect(rooms(s)).toEqual(ended);
      expect(s.stepTexts()).toEqual(texts);
      expect(s.states()).toStrictEqual(states);
    }
  });
});
