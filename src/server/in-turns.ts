import { setImmediate as nextTurn } from 'node:timers/promises';

/**
 * Runs work in steps (core/in-steps.ts) to its end, one step a turn of the event loop: what the server does with
 * work whose size is a session's length (a step view's start, a session's final report), so that other clients'
 * frames and requests are read between its slices. The first step runs before the first await.
 */
export async function runInTurns<T>(steps: Generator<void, T>): Promise<T> {
  for (let r = steps.next(); ; r = steps.next()) {
    if (r.done === true) return r.value;
    await nextTurn();
  }
}
