/** Opening one WebSocket to the server, with refusals and failures as typed errors. */
import type { IncomingMessage } from 'node:http';
import type WebSocket from 'ws';
import { SteplensClientError } from './errors.js';
import type { WebSocketClass } from './types.js';

/**
 * How long an opening handshake may take **(choice)**: a server or proxy that takes the TCP connection but never
 * answers the upgrade would otherwise hold a (re)connect attempt, and every call waiting on it, for good. The
 * Python client's `open_timeout` is the same 10 s.
 */
export const OPEN_TIMEOUT_MS = 10_000;

/** Bytes of a refused upgrade's answer read for its reason, and how long it may take to come. */
const REFUSAL_BYTES = 4096;
const REFUSAL_WAIT_MS = 1000;

/** ` code: message` of a refused upgrade's JSON error answer, or '' when it has none (or not soon). */
function refusalText(res: IncomingMessage): Promise<string> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const done = (): void => {
      clearTimeout(timer);
      res.off('data', onData).off('end', done).off('error', done).off('close', done);
      res.resume();
      try {
        const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { error?: { code?: unknown; message?: unknown } };
        const { code, message } = body.error ?? {};
        resolve(typeof code === 'string' && typeof message === 'string' ? ` ${code}: ${message}` : '');
      } catch {
        resolve('');
      }
    };
    const onData = (chunk: Buffer): void => {
      chunks.push(chunk);
      size += chunk.length;
      if (size >= REFUSAL_BYTES) done();
    };
    const timer = setTimeout(done, REFUSAL_WAIT_MS);
    res.on('data', onData).on('end', done).on('error', done).on('close', done);
  });
}

/**
 * Opens a socket to `url` (taking frames of at most `maxPayload` bytes from it: `ws`' default when undefined); rejects with `unauthorized`/`refused` (an HTTP
 * answer to the upgrade, its message naming the server's reason) or `unreachable`. The socket keeps a no-op `error`
 * listener: socket errors always end in `close`, which the client handles.
 */
export function openSocket(Ctor: WebSocketClass, url: string, token: string | undefined, timeoutMs = OPEN_TIMEOUT_MS, maxPayload?: number): Promise<WebSocket> {
  return new Promise((resolve, reject) => {
    let ws: WebSocket;
    try {
      ws = new Ctor(url, { handshakeTimeout: timeoutMs, ...(maxPayload !== undefined ? { maxPayload } : {}), ...(token ? { headers: { authorization: `Bearer ${token}` } } : {}) });
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
    const onResponse = (_req: unknown, res: IncomingMessage): void => {
      const status = res.statusCode ?? 0;
      // The server's answer names why (`{ error: { code, message } }`, e.g. a tenant's quota of connections): read
      // a little of it, for a short while, then give up on it.
      void refusalText(res).then((why) => {
        settle(new SteplensClientError(status === 401 ? 'unauthorized' : 'refused', `${url}: the server refused the connection (HTTP ${status || '?'}${why})`));
        ws.terminate();
      });
    };
    const onClose = (): void => settle(new SteplensClientError('unreachable', `cannot reach ${url}: closed while opening`));
    const onOpen = (): void => settle();
    ws.on('error', (error: Error & { code?: string }) => {
      if (!settled) settle(new SteplensClientError('unreachable', `cannot reach ${url}: ${networkReason(error)}`));
    });
    ws.on('unexpected-response', onResponse).on('close', onClose).on('open', onOpen);
  });
}

/** Why a connection could not be opened, in words with the system's code (`replay` printed a bare `ECONNREFUSED`). */
const NETWORK_REASONS: Readonly<Record<string, string>> = {
  ECONNREFUSED: 'connection refused (ECONNREFUSED: no server listening at that address and port?)',
  ENOTFOUND: 'unknown host name (ENOTFOUND)',
  EAI_AGAIN: 'host name lookup failed for now (EAI_AGAIN)',
  ECONNRESET: 'connection reset by the other end (ECONNRESET)',
  ETIMEDOUT: 'timed out (ETIMEDOUT)',
  EHOSTUNREACH: 'host unreachable (EHOSTUNREACH)',
  ENETUNREACH: 'network unreachable (ENETUNREACH)',
};

function networkReason(error: Error & { code?: string }): string {
  return (error.code !== undefined ? NETWORK_REASONS[error.code] : undefined) ?? error.code ?? error.message;
}

/** How long `close()` waits for the server's close handshake before it drops the connection **(choice)**. */
export const CLOSE_TIMEOUT_MS = 2_000;

/** Closes `ws` (1000) and resolves once it is closed; a peer that stopped answering (a hung server, a half-open link) does not hold it for ws's 30 s. */
export function closeSocket(ws: WebSocket): Promise<void> {
  if (ws.readyState === ws.CLOSED) return Promise.resolve();
  return new Promise<void>((resolve) => {
    const cut = setTimeout(() => ws.terminate(), CLOSE_TIMEOUT_MS);
    ws.once('close', () => {
      clearTimeout(cut);
      resolve();
    });
    ws.close(1000);
  });
}
