/** The tests' real redis-server (free port, temp dir, append-only file): see bench/redis-server.ts. */
export { RedisServer, freePort, redisServerBinary } from '../../bench/redis-server.js';
