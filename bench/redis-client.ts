/**
 * A client of a bench's or test's own redis-server. ioredis prints "[ioredis] Unhandled error event" with a stack on
 * stderr for every failed connection attempt of a client with no 'error' listener: once the server is stopped (a test
 * that kills Redis, a file's server destroyed after its tests), a client still open tries again and again, and the
 * lines landed in other test files' output. Commands still reject with their own error; the connection's are dropped.
 */
import { Redis, type RedisOptions } from 'ioredis';

/** An ioredis client of `url` with an 'error' listener (close it with `disconnect()` before its server goes). */
export function redisClient(url: string, options: RedisOptions = {}): Redis {
  const client = new Redis(url, options);
  client.on('error', () => undefined);
  return client;
}
