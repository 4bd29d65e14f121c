/**
 * A WebSocket upgrade that cannot become a steplens stream is refused in the JSON error shape of every other
 * route, before `ws` or the websocket plugin see it: else an upgrade to a plain route got `101` then close 1005
 * (the plugin upgrades and closes), and a malformed handshake got `ws`'s `400` text/html.
 */
import type { IncomingHttpHeaders } from 'node:http';

/** The one WebSocket route. */
export const STREAM_ROUTE = '/v1/stream';

/** RFC 6455 4.1: the key is 16 random bytes in base64. */
const KEY = /^[+/0-9A-Za-z]{22}==$/;

/** True when the request asks for a WebSocket upgrade. */
export function isUpgrade(headers: IncomingHttpHeaders): boolean {
  return headers.upgrade?.toLowerCase() === 'websocket';
}

/**
 * Why the upgrade request to `route` (the matched route's pattern, undefined when none matched: that is the
 * not-found handler's) is refused, or undefined when it is a handshake `ws` accepts.
 */
export function upgradeRefusal(method: string, route: string | undefined, headers: IncomingHttpHeaders): string | undefined {
  if (route === undefined) return undefined;
  if (route !== STREAM_ROUTE) return `${method} ${route} is not a WebSocket endpoint: the stream is GET ${STREAM_ROUTE}`;
  const key = headers['sec-websocket-key'];
  if (typeof key !== 'string' || !KEY.test(key.trim())) return 'WebSocket handshake: Sec-WebSocket-Key is missing or not 16 bytes in base64';
  const version = headers['sec-websocket-version'];
  if (version !== '13' && version !== '8') return `WebSocket handshake: Sec-WebSocket-Version ${version === undefined ? 'is missing' : `${version} is not supported`} (send 13)`;
  return undefined;
}
