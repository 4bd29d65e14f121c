/** `serve --redis` and its companions (flags and environment), and what a bad URL says. */
import { describe, expect, it } from 'vitest';
import { serverConfig } from '../../src/server/config.js';

describe('serve --redis', () => {
  it('reads the Redis settings from flags, or from the environment', async () => {
    const flags = await serverConfig(['--redis', 'redis://cache:6380/2', '--redis-prefix', 'prod:', '--replica-id', 'pod-7', '--lease', '5', '--no-seed'], {}, '/tmp');
    expect(flags.app.redis).toEqual({ url: 'redis://cache:6380/2', prefix: 'prod:', replicaId: 'pod-7', leaseMs: 5000 });
    const env = await serverConfig(['--no-seed'], { STEPLENS_REDIS_URL: 'redis://r:6379', STEPLENS_REDIS_PREFIX: 'x:', STEPLENS_REPLICA_ID: 'r1' }, '/tmp');
    expect(env.app.redis).toEqual({ url: 'redis://r:6379', prefix: 'x:', replicaId: 'r1' });
    expect((await serverConfig(['--no-seed'], {}, '/tmp')).app.redis).toBeUndefined();
  });

  it('refuses a URL that is not redis:// with one usage error', async () => {
    await expect(serverConfig(['--redis', 'http://cache:6379'], {}, '/tmp')).rejects.toMatchObject({ code: 'usage', message: expect.stringMatching(/--redis: .* must start with redis:\/\//) });
    await expect(serverConfig(['--redis', 'not a url'], {}, '/tmp')).rejects.toMatchObject({ code: 'usage', message: expect.stringMatching(/is not a URL/) });
    await expect(serverConfig(['--redis', 'redis://h:1', '--lease', '0'], {}, '/tmp')).rejects.toMatchObject({ code: 'usage' });
  });
});
