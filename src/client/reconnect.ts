/** Reopening a dropped socket with exponential backoff, and waiting so before a resume is asked again; cancellable when the client closes. */
import type WebSocket from 'ws';
import { SteplensClientError } from './errors.js';
import type { ReconnectOptions } from './types.js';

/** The longest wait between two attempts. */
export const MAX_RECONNECT_DELAY_MS = 30_000;

/** A reconnect loop: `run` tries `open` up to `retries` times, waiting `delayMs`, `2*delayMs`, ... before each. */
export class Reconnector {
  private wake: (() => void) | undefined;
  private cancelled = false;

  constructor(private readonly options: ReconnectOptions) {}

  /** Resolves with the new socket, or undefined once cancelled; rejects with `disconnected` when every attempt failed. */
  async run(open: () => Promise<WebSocket>, why: string): Promise<WebSocket | undefined> {
    const { retries, delayMs } = this.options;
    let last: unknown;
    for (let i = 0; i < retries; i++) {
      await this.sleep(Math.min(delayMs * 2 ** i, MAX_RECONNECT_DELAY_MS));
      if (this.cancelled) return undefined;
      try {
        const ws = await open();
        if (!this.cancelled) return ws;
        ws.close(1000);
        return undefined;
      } catch (error) {
        last = error;
      }
    }
    const detail = last instanceof Error ? `: ${last.message}` : '';
    throw new SteplensClientError('disconnected', `${why}; ${retries} reconnect attempts failed${detail}`);
  }

  /** Stops the loop (the current wait ends at once). */
  cancel(): void {
    this.cancelled = true;
    this.wake?.();
  }

  private sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(resolve, ms);
      this.wake = () => {
        clearTimeout(timer);
        resolve();
      };
    });
  }
}

/** Waits before asking again (a resume the server refused): the reconnect's backoff, the timers cleared on `cancel`. */
export class Backoff {
  private readonly timers = new Set<ReturnType<typeof setTimeout>>();

  /** Runs `again` after `delayMs * 2 ** attempt` (at most 30 s). */
  schedule(attempt: number, delayMs: number, again: () => void): void {
    const timer = setTimeout(
      () => {
        this.timers.delete(timer);
        again();
      },
      Math.min(delayMs * 2 ** attempt, MAX_RECONNECT_DELAY_MS),
    );
    this.timers.add(timer);
  }

  /** Clears every wait (the client closed). */
  cancel(): void {
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
  }
}
