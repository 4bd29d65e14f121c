/** `connect`: opens a client to a steplens server. */
import WebSocket from 'ws';
import { SteplensClient } from './client.js';
import { openSocket } from './socket.js';
import { HEARTBEAT_MS } from './heartbeat.js';
import { DEFAULT_MAX_FRAME_BYTES, DEFAULT_RECONNECT, type ConnectOptions, type ReconnectOptions } from './types.js';
import { streamUrl } from './url.js';
import { timeoutOption } from './deadline.js';
import { serverFrameLimit } from './server-frame-limit.js';

/**
 * Connects to the server at `url` (http(s):// or ws(s)://; `/v1/stream` is
 * added when the path is empty). Rejects with a `SteplensClientError`:
 * `bad_url`, `unauthorized` (HTTP 401), `refused` or `unreachable`. The first
 * connection is not retried; `reconnect` applies to later drops.
 */
export async function connect(url: string, options: ConnectOptions = {}): Promise<SteplensClient> {
  const target = streamUrl(url);
  const timeoutMs = timeoutOption(options.timeoutMs);
  const maxServerFrameBytes = serverFrameLimit(options.maxServerFrameBytes);
  const Ctor = options.WebSocket ?? WebSocket;
  const ws = await openSocket(Ctor, target, options.token, undefined, maxServerFrameBytes);
  let reconnect: ReconnectOptions | undefined;
  if (options.reconnect === true) reconnect = DEFAULT_RECONNECT;
  else if (options.reconnect) reconnect = options.reconnect;
  return new SteplensClient(ws, {
    url: target,
    token: options.token,
    reconnect,
    WebSocket: Ctor,
    maxFrameBytes: options.maxFrameBytes ?? DEFAULT_MAX_FRAME_BYTES,
    heartbeatMs: options.heartbeatMs ?? HEARTBEAT_MS,
    timeoutMs,
    maxServerFrameBytes,
  });
}
