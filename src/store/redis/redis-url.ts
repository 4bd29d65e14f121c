/**
 * Reading a Redis URL, apart from the connection (link.ts) so that checking `--redis` and naming its endpoint does
 * not load ioredis: a server without Redis never loads it (~90 ms of every `serve` start).
 */
import { SteplensError } from '../../errors.js';

/** The user-visible endpoint of a URL (no password). */
export function redisEndpoint(url: string): string {
  try {
    const u = new URL(url);
    return `${u.hostname}:${u.port || '6379'}`;
  } catch {
    return 'the configured Redis';
  }
}

/** Checks a Redis URL; a usage error names what is wrong. */
export function checkRedisUrl(url: string): void {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    throw new SteplensError('usage', `--redis: '${url}' is not a URL (expected redis://host:port)`);
  }
  if (u.protocol !== 'redis:' && u.protocol !== 'rediss:') {
    throw new SteplensError('usage', `--redis: '${url}' must start with redis:// or rediss://`);
  }
}
