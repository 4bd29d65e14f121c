/** Opening one WebSocket to the server, with refusals and failures as typed errors. */
import type WebSocket from 'ws';
import { SteplensClientError } from './errors.js';
import type { WebSocketClass } from './types.js';

/**
 * Opens a socket to `url`; rejects with `unauthorized`/`refused` (an HTTP
 * answer to the upgrade) or `unreachable`. The socket keeps a no-op `error`
 * listener: socket errors always end in `close`, which the client handles.
 */
/**
 * How long an opening handshake may take **(choice)**: a server or proxy that takes the TCP connection but never
 * answers the upgrade would otherwise hold a (re)connect attempt, and every call waiting on it, for good. The
 * Python client's `open_timeout` is the same 10 s.
 */
export const OPEN_TIMEOUT_MS = 10_000;

export function openSocket(Ctor: WebSocketClass, url: string, token: string | undefined, timeoutMs = OPEN_TIMEOUT_MS): Promise<WebSocket> {
  return new Promise((resolve, reject) => {
    let ws: WebSocket;
    try {
      ws = new Ctor(url, { handshakeTimeout: timeoutMs, ...(token ? { headers: { authorization: `Bearer ${token}` } } : {}) });
    } catch (error) {
      reject(new SteplensClientError('unreachable', `cannot open ${url}: ${(error as Error).message}`));
      return;
    }
    let settled = false;
    const settle = (e?: SteplensClientError): void => {
      if (settled) return;
      settled = true;
      ws.off('unexpected-response', onResponse).off('close', onClose).off('open', onOpen);
      if (e) reject(e);
      else resolve(ws);
    };
    const onResponse = (_req: unknown, res: { statusCode?: number; resume(): void }): void => {
      const status = res.statusCode ?? 0;
      settle(new SteplensClientError(status === 401 ? 'unauthorized' : 'refused', `${url}: the server refused the connection (HTTP ${status || '?'})`));
      res.resume();
      ws.terminate();
    };
    const onClose = (): void => settle(new SteplensClientError('unreachable', `cannot reach ${url}: closed while opening`));
    const onOpen = (): void => settle();
    ws.on('error', (error: Error & { code?: string }) => {
      if (!settled) settle(new SteplensClientError('unreachable', `cannot reach ${url}: ${error.code ?? error.message}`));
    });
    ws.on('unexpected-response', onResponse).on('close', onClose).on('open', onOpen);
  });
}
