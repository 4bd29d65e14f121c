/** The tests' real redis-server (free port, temp dir, append-only file): see bench/redis-server.ts; clients of it: bench/redis-client.ts. */
export { RedisServer, freePort, redisServerBinary } from '../../bench/redis-server.js';
export { redisClient } from '../../bench/redis-client.js';
