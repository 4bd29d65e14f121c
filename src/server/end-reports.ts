/**
 * What a session's end builds before its final (docs/reliability.md T34): its report (every state rebuilt from the
 * scorer's columns, then the five waste detectors: 136-203 ms in one go at 5,000 steps) and, for learning and the
 * shadow record, its states (rebuilt once for both), a slice a turn of the event loop. Ends of long sessions build
 * theirs one at a time, each from a turn of its own: ended at once, four 5,000-step sessions each ran a slice in
 * every turn. Ends of shorter ones (a slice or two) start at once, not behind them.
 */
import { STATES_PER_STEP } from '../core/in-steps.js';
import type { TrajectoryReport } from '../core/scorer-api.js';
import type { State } from '../core/types.js';
import { runInTurns } from './in-turns.js';
import { OneAtATime } from './one-at-a-time.js';
import type { Session } from './session.js';

/** Sessions of this many steps or more build their end's report in the queue. */
export const QUEUED_END_STEPS = STATES_PER_STEP;

export class EndReports {
  private readonly queue = new OneAtATime();

  /** `report`: the report in steps that `session.finish()` gave; `withStates`: its states too (none otherwise). */
  build(session: Session, report: Generator<void, TrajectoryReport>, withStates: boolean): Promise<{ report: TrajectoryReport; states: readonly State[] }> {
    const work = async (): Promise<{ report: TrajectoryReport; states: readonly State[] }> => ({
      report: await runInTurns(report),
      states: withStates ? await runInTurns(session.statesInSteps()) : [],
    });
    return session.length >= QUEUED_END_STEPS ? this.queue.run(work, session.principal.tenant) : work();
  }
}
