/** Reopening a dropped socket with exponential backoff, cancellable when the client closes. */
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
