/**
 * Sessions idle between steps keep their long texts deflated (issue 24 item 2): an agent waits seconds on its model
 * between steps, and a session that shares no text with others holds about half its heap in file text the agent
 * saw (bench/README.md, "Memory per session, sixth pass"). Done by the registry's sweep, outside any step: a session
 * stepping more often than {@link COMPACT_IDLE_MS} never pays the deflate, one that comes back pays an inflate
 * (~20 µs for a 16 KB file) when a step reads the text again.
 */
import { setImmediate as nextTurn } from 'node:timers/promises';
import type { Session } from './session.js';

/** A live session with no step for this long is compacted by the next sweep. */
export const COMPACT_IDLE_MS = 5_000;
/** Compaction work in one turn of the event loop before the sweep yields (a session's ~30k characters: ~1 ms). */
const COMPACT_TURN_MS = 2;

/** The step count each session had when it was last compacted (once an idle spell: nothing changes until it steps). */
const compactedAt = new WeakMap<Session, number>();

/** Compacts the live sessions idle for {@link COMPACT_IDLE_MS} at `now` that stepped since their last compaction; how many. */
export async function compactIdle(sessions: Iterable<Session>, now: number): Promise<number> {
  let n = 0;
  let turn = performance.now();
  for (const s of sessions) {
    if (s.ended || now - s.lastActivity < COMPACT_IDLE_MS || compactedAt.get(s) === s.length || !s.compact()) continue;
    compactedAt.set(s, s.length);
    n++;
    if (performance.now() - turn >= COMPACT_TURN_MS) {
      await nextTurn();
      turn = performance.now();
    }
  }
  return n;
}
