/** A request to a route the server does not have gets the catalogue's `unknown_route` (404), in the HTTP error body. */
import { describe, expect, it } from 'vitest';
import { httpErrorSchema } from '../../src/protocol/http-bodies.js';
import { useInjectApp } from './helpers.js';

const app = useInjectApp();

describe('unknown routes', () => {
  it('answer 404 unknown_route naming the method and path', async () => {
    for (const [method, url] of [
      ['GET', '/v1/nope?x=1'],
      ['POST', '/v1/tasks'],
    ] as const) {
      const res = await app().inject({ method, url });
      expect(res.statusCode).toBe(404);
      const body = httpErrorSchema.parse(res.json());
      expect(body).toEqual({ error: { code: 'unknown_route', message: `no route ${method} ${url.split('?')[0]}` } });
    }
  });
});

describe('GET /v1/stream without the WebSocket upgrade', () => {
  it('answers 400 bad_message in the HTTP error body, saying the upgrade is missing (was an empty 404)', async () => {
    const res = await app().inject({ method: 'GET', url: '/v1/stream' });
    expect(res.statusCode).toBe(400);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    const body = httpErrorSchema.parse(res.json());
    expect(body.error.code).toBe('bad_message');
    expect(body.error.message).toMatch(/WebSocket endpoint: send the upgrade/);
  });
});
