/**
 * audit19: a POST without a body got "body: empty (send a JSON object)" on the scoring routes but zod's
 * "body: Invalid input: expected object, received undefined" on /v1/tickets and /v1/policies/pin|freeze, and
 * fastify's "Body cannot be empty when content-type is set to 'application/json'" with that header. Every route now
 * answers an empty body in the same words.
 */
import { describe, expect, it } from 'vitest';
import { EMPTY_BODY } from '../../src/protocol/parse.js';
import { useInjectApp } from './helpers.js';

const ROUTES = ['/v1/tickets', '/v1/policies/pin', '/v1/policies/freeze', '/v1/score', '/v1/rank', '/v1/score/batch', '/get_reward'];

describe('a POST without a body', () => {
  const app = useInjectApp();
  it('is one 400 bad_message in the same words on every route, with or without a JSON content type', async () => {
    for (const url of ROUTES) {
      for (const headers of [{}, { 'content-type': 'application/json' }]) {
        const res = await app().inject({ method: 'POST', url, headers });
        expect({ url, headers, status: res.statusCode, body: res.json<unknown>() }).toEqual({
          url,
          headers,
          status: 400,
          body: { error: { code: 'bad_message', message: EMPTY_BODY } },
        });
      }
    }
  });
  it('still names the field of a body that is there', async () => {
    const res = await app().inject({ method: 'POST', url: '/v1/tickets', payload: { route: '/v1/nowhere' } });
    expect(res.statusCode).toBe(400);
    expect(res.json<{ error: { message: string } }>().error.message).toMatch(/^body\.route: /);
  });
});
