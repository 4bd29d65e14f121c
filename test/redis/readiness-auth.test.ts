/**
 * `/readyz` answers without a token (balancer and Kubernetes probes send none), but the reason a replica is not
 * ready names the Redis endpoint: only a request with a token gets it.
 */
import { afterAll, describe, expect, it } from 'vitest';
import type { Running } from '../server/helpers.js';
import { RedisServer } from './redis-server.js';
import { freshPrefix, startReplica } from './replicas.js';

const started: Running[] = [];
let redis: RedisServer | undefined;
afterAll(async () => {
  for (const r of started) await r.app.close();
  await redis?.destroy();
});

describe('readiness with tokens', () => {
  it('is open; a not-ready reason is given only with a token', async () => {
    redis = await RedisServer.start();
    const replica = await startReplica(redis, freshPrefix('ready'), 'ready-a', { tokens: ['s3cret'] });
    started.push(replica);
    expect((await fetch(`${replica.url}/readyz`)).status).toBe(200);
    await redis.stop('SIGKILL');
    let anonymous: Response;
    const deadline = Date.now() + 10_000;
    do anonymous = await fetch(`${replica.url}/readyz`);
    while (anonymous.status !== 503 && Date.now() < deadline);
    expect(await anonymous.json()).toEqual({ status: 'not ready', error: { code: 'unavailable', message: 'not ready (the reason is given to a request with a token)' } });
    const withToken = await fetch(`${replica.url}/readyz`, { headers: { authorization: 'Bearer s3cret' } });
    expect(withToken.status).toBe(503);
    expect(((await withToken.json()) as { error: { message: string } }).error.message).toMatch(/Redis at .* is unreachable/);
    expect((await fetch(`${replica.url}/v1/tasks`)).status).toBe(401);
  });
});
