/**
 * HTTP answers nobody reads (T113). Node times out neither a response nor its socket once the request is in
 * (`server.timeout` 0), so an answer written to a client that never reads stayed until the connection closed: what the
 * kernel took (up to `tcp_wmem`'s 4 MiB a socket, 256 connections an address) and, past that, the rest in the process
 * (an 8.1 MB `/v1/score/batch` answer, pipelined answers behind it). Here an answer that is written whole (`end`) and
 * whose bytes still waiting in the process have not gone down for `answerDrainMs` has its connection reset: the
 * socket is destroyed with an RST, which also drops what the kernel held of it. The clock starts at the answer's end
 * and restarts whenever its unsent bytes go down: a slow reader that takes bytes keeps its connection, and neither a
 * long computation (nothing written yet) nor a stream that is still being written (the live feed, bounded by its own
 * queue) is timed. Not an idle timeout: WebSocket upgrades never reach `request`.
 */
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';

/** How often answers are checked at most (ms): a tenth of the bound, within these. */
const CHECK_MS = { min: 50, max: 1000 } as const;

/** An answer ended and not yet handed whole to the kernel: its unsent bytes at the last check, and since when they have not gone down. */
interface Waiting {
  unsent: number;
  since: number;
}

export interface AnswerDrain {
  /** Answers ended and not taken whole by the kernel, being timed. */
  readonly waiting: number;
  /** Stops the checks (the server closes). */
  stop(): void;
}

/** Resets the connection (RST): the socket's bytes queued in the kernel go too, not only the process's. */
function reset(socket: Socket): void {
  if (socket.destroyed) return;
  if (typeof socket.resetAndDestroy === 'function') socket.resetAndDestroy();
  else socket.destroy();
}

/**
 * Watches every answer of `server`; `onCut(req, unsent)` is told of each connection reset. `maxMs` 0: no bound.
 * `now` is a clock for tests.
 */
export function boundAnswerDrain(server: Server, maxMs: number, onCut: (req: IncomingMessage, unsent: number) => void, now: () => number = Date.now): AnswerDrain {
  const waiting = new Map<ServerResponse, Waiting>();
  if (maxMs <= 0) return { waiting: 0, stop: () => undefined };
  // Before the server's own listener, which may end the answer at once.
  server.prependListener('request', (_req: IncomingMessage, res: ServerResponse) => {
    // 'prefinish': the whole answer is written (end called, its last bytes queued); 'finish': the kernel took them all.
    res.once('prefinish', () => {
      if (res.writableLength > 0) waiting.set(res, { unsent: res.writableLength, since: now() });
    });
    const done = (): void => void waiting.delete(res);
    res.once('finish', done);
    res.once('close', done);
  });
  const check = (): void => {
    const t = now();
    for (const [res, w] of waiting) {
      const socket = res.socket;
      // Pipelined behind an answer not yet taken (no socket of its own yet): that answer is the one timed.
      if (socket === null) continue;
      const unsent = res.writableLength;
      if (unsent < w.unsent) {
        w.unsent = unsent;
        w.since = t;
        continue;
      }
      if (t - w.since < maxMs) continue;
      waiting.delete(res);
      onCut(res.req, unsent);
      reset(socket);
    }
  };
  const timer = setInterval(check, Math.max(CHECK_MS.min, Math.min(CHECK_MS.max, maxMs / 10)));
  timer.unref();
  server.once('close', () => clearInterval(timer));
  return {
    get waiting() {
      return waiting.size;
    },
    stop: () => clearInterval(timer),
  };
}
