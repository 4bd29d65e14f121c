/** Server address → WebSocket stream URL. */
import { SteplensClientError } from './errors.js';

/**
 * The stream URL for a server address: `http(s)://` becomes `ws(s)://` with `/v1/stream` added to its path (a
 * server behind a proxy at `http://host/steplens` streams at `/steplens/v1/stream`, as the Python client has it;
 * a path already ending in `/v1/stream` is kept); a `ws(s)://` URL with a path is used as given, without one
 * `/v1/stream` is added. Throws a `bad_url` {@link SteplensClientError} for anything else.
 */
export function streamUrl(url: string): string {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    throw new SteplensClientError('bad_url', `not a URL: '${url}'`);
  }
  const http = u.protocol === 'http:' || u.protocol === 'https:';
  if (u.protocol === 'http:') u.protocol = 'ws:';
  else if (u.protocol === 'https:') u.protocol = 'wss:';
  else if (u.protocol !== 'ws:' && u.protocol !== 'wss:') {
    throw new SteplensClientError('bad_url', `expected http(s):// or ws(s):// (got ${u.protocol})`);
  }
  // The trailing slashes, cut by a loop: `/\/+$/` rescanned a run of slashes from each of them (quadratic).
  let end = u.pathname.length;
  while (end > 0 && u.pathname.charCodeAt(end - 1) === 47 /* / */) end--;
  const path = u.pathname.slice(0, end);
  if (path === '' || (http && !path.endsWith('/v1/stream'))) u.pathname = `${path}/v1/stream`;
  return u.toString();
}
