/**
 * The live feed (`GET /v1/live`, Server-Sent Events) read with fetch, so the
 * token goes in a header (EventSource cannot set one). Reconnects with a
 * growing pause; each connection starts with a fresh snapshot, so nothing is
 * missed across a reconnect.
 */
import { ApiError, request } from './api.js';

export type LiveStatus = 'connecting' | 'live' | 'retrying' | 'stopped';

export interface LiveOptions {
  path: string;
  onEvent: (event: { type: string } & Record<string, unknown>) => void;
  onStatus?: (status: LiveStatus, detail?: string) => void;
  /** Stop retrying when this says so (e.g. the session is unknown). */
  fatal?: (error: unknown) => boolean;
}

/** Opens the feed; the returned function closes it for good. */
export function openLive(o: LiveOptions): () => void {
  let stopped = false;
  let controller: AbortController | undefined;
  let pause = 1000;
  const run = async (): Promise<void> => {
    while (!stopped) {
      controller = new AbortController();
      o.onStatus?.('connecting');
      try {
        const res = await request(o.path, { signal: controller.signal, headers: { accept: 'text/event-stream' } });
        o.onStatus?.('live');
        pause = 1000;
        await read(res, o.onEvent);
        if (!stopped) o.onStatus?.('retrying', 'the server ended the feed');
      } catch (error) {
        if (stopped) return;
        // A refused token or a session that is gone will not get better by retrying.
        if ((error instanceof ApiError && (error.status === 401 || error.status === 404)) || o.fatal?.(error)) {
          o.onStatus?.('stopped', error instanceof Error ? error.message : String(error));
          return;
        }
        o.onStatus?.('retrying', error instanceof Error ? error.message : String(error));
      }
      await new Promise((r) => setTimeout(r, pause));
      pause = Math.min(pause * 2, 10_000);
    }
  };
  void run();
  return () => {
    stopped = true;
    controller?.abort();
  };
}

/** Reads SSE blocks (`data:` lines, blank line between events) until the body ends. */
async function read(res: Response, onEvent: LiveOptions['onEvent']): Promise<void> {
  if (res.body === null) return;
  const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = '';
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return;
    buffer += value;
    let cut: number;
    while ((cut = buffer.indexOf('\n\n')) >= 0) {
      const block = buffer.slice(0, cut);
      buffer = buffer.slice(cut + 2);
      const data = block
        .split('\n')
        .filter((l) => l.startsWith('data:'))
        .map((l) => l.slice(5).trimStart())
        .join('\n');
      if (data !== '') onEvent(JSON.parse(data) as { type: string });
    }
  }
}
