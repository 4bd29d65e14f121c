/**
 * How long a client call waits for the server's answer (`timeoutMs` of `connect`). A server that answers the
 * heartbeat's pings (ws answers them by itself) but never a frame held `start`, `step`, `end` and `ping` for ever
 * (T60). The deadline rejects the caller's promise only: the message stays in flight, so a late answer still takes
 * effect where the client keeps it (a step's frames in `scores` and `onScore`, the final in `session.final`).
 */
import { type SteplensClientError } from './errors.js';

/** The default: as long as the Python SyncClient's `timeout` (120 s) **(choice)**. */
export const DEFAULT_TIMEOUT_MS = 120_000;

/** `timeoutMs` as given to `connect`, checked: a number of ms, 0 for no deadline. */
export function timeoutOption(ms: number | undefined): number {
  if (ms === undefined) return DEFAULT_TIMEOUT_MS;
  if (typeof ms !== 'number' || !Number.isFinite(ms) || ms < 0) {
    throw new RangeError(`connect: timeoutMs must be a number of milliseconds, 0 or more (0: no deadline), got ${String(ms)}`);
  }
  return ms;
}

/**
 * `answer`, or a rejection with `late()`'s error once `ms` pass without it (0: no deadline). `late` runs only then, so it
 * may also give up what the call held (a `start`'s id).
 */
export function withDeadline<T>(answer: Promise<T>, ms: number, late: () => SteplensClientError): Promise<T> {
  if (ms === 0) return answer;
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(late()), ms);
    void answer.then(resolve, reject).finally(() => clearTimeout(timer));
  });
}
