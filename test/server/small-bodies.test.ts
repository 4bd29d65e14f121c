/**
 * T32: every route but the scoring ones took a body up to `maxBodyBytes` (64 MiB) and fastify parsed it on the
 * event loop before the route looked at it: an agent's 60 MB JSON body to `POST /v1/tickets` (its route, its own
 * token) held every other client 3.5-5.6 s per request. Those routes now take at most SMALL_BODY_BYTES (64 KiB;
 * their largest real body is a few hundred bytes): past it 413 `too_large` before the body is read, the body
 * drained as for any 413. The scoring routes, which read their bodies as raw bytes for a worker, keep
 * `maxBodyBytes`.
 */
import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { SMALL_BODY_BYTES } from '../../src/server/http-errors.js';
import { ALICE_BOB_OPS, ASTROID, useApp } from './helpers.js';

const server = useApp({ tokens: ALICE_BOB_OPS });

async function send(method: string, path: string, body: string, token = 'bob'): Promise<{ status: number; body: { error?: { code: string; message: string } } }> {
  const res = await fetch(`${server().url}${path}`, { method, headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body });
  return { status: res.status, body: (await res.json()) as { error?: { code: string; message: string } } };
}

/** A JSON object of about `bytes` bytes that each route refuses once parsed (an unknown key), so a parse shows as 400. */
const padded = (fields: string, bytes: number): string => `{${fields},"x":[${'{"a":1},'.repeat(Math.ceil(bytes / 8))}0]}`;

describe('bodies of the routes fastify parses', () => {
  it('are refused 413 past SMALL_BODY_BYTES, before they are parsed', async () => {
    const size = 16 * SMALL_BODY_BYTES;
    for (const [method, path, fields, token] of [
      ['POST', '/v1/tickets', '"route":"/v1/live"', 'bob'],
      ['DELETE', '/v1/tasks/pylint-dev__astroid-1196/pta', '"a":1', 'bob'],
      ['POST', '/v1/policies/pin', '"agent":"a","model":"m","policy":null', 'op'],
      ['POST', '/v1/policies/freeze', '"agent":"a","model":"m","frozen":true', 'op'],
    ] as const) {
      const res = await send(method, path, padded(fields, size), token);
      expect(res, `${method} ${path}`).toMatchObject({ status: 413, body: { error: { code: 'too_large', message: expect.stringContaining(`exceeds ${SMALL_BODY_BYTES} bytes`) } } });
    }
  });

  it('under it, are parsed as before', async () => {
    expect(await send('POST', '/v1/tickets', padded('"route":"/v1/live"', SMALL_BODY_BYTES / 2))).toMatchObject({
      status: 400,
      body: { error: { code: 'bad_message', message: expect.stringContaining('"x"') } },
    });
    expect((await send('POST', '/v1/tickets', '{"route":"/v1/live"}')).status).toBe(200);
  });

  it('the scoring routes still take bodies up to maxBodyBytes', async () => {
    const trajectory = await readFile(ASTROID.passA, 'utf8');
    expect(trajectory.length).toBeGreaterThan(4 * SMALL_BODY_BYTES);
    const res = await send('POST', '/v1/score', `{"task":"${ASTROID.task}","trajectory":${trajectory}}`, 'alice');
    expect(res.status).toBe(200);
  });

  it('an unknown route answers unknown_route without reading its body (it was parsed first: broken JSON got 400)', async () => {
    for (const body of [padded('"a":1', 4 * SMALL_BODY_BYTES), '{"a":', padded('"a":1', 64).slice(0, -3)]) {
      expect(await send('POST', '/v1/nothing', body)).toMatchObject({ status: 404, body: { error: { code: 'unknown_route' } } });
    }
  });
});
