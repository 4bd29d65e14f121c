/** Server address → WebSocket stream URL. */
import { SteplensClientError } from './errors.js';

/**
 * The stream URL for a server address: `http(s)://` becomes `ws(s)://`, and
 * `/v1/stream` is added when the path is empty. Throws a `bad_url`
 * {@link SteplensClientError} for anything else.
 */
export function streamUrl(url: string): string {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    throw new SteplensClientError('bad_url', `not a URL: '${url}'`);
  }
  if (u.protocol === 'http:') u.protocol = 'ws:';
  else if (u.protocol === 'https:') u.protocol = 'wss:';
  else if (u.protocol !== 'ws:' && u.protocol !== 'wss:') {
    throw new SteplensClientError('bad_url', `expected http(s):// or ws(s):// (got ${u.protocol})`);
  }
  if (u.pathname === '/' || u.pathname === '') u.pathname = '/v1/stream';
  return u.toString();
}
