/**
 * Review s42, low: a JSON body sent as text/plain (what fetch sends for a string body without a header) was
 * answered "body: empty" on the scoring routes and "expected object, received string" elsewhere. Every body is
 * JSON: another content type is refused naming it and saying to send application/json.
 */
import { describe, expect, it } from 'vitest';
import { ASTROID, readDoc, useInjectApp } from './helpers.js';

const app = useInjectApp();

describe('request content types', () => {
  it('refuses a JSON body sent as text/plain (or any type but JSON) naming it, on every route', async () => {
    const score = JSON.stringify({ task: ASTROID.task, trajectory: await readDoc(ASTROID.fail) });
    const ticket = JSON.stringify({ route: '/v1/live' });
    for (const [url, payload] of [
      ['/v1/score', score],
      ['/v1/tickets', ticket],
    ] as const) {
      for (const type of ['text/plain;charset=UTF-8', 'application/x-www-form-urlencoded']) {
        const res = await app().inject({ method: 'POST', url, headers: { 'content-type': type }, payload });
        expect(res.statusCode).toBe(400);
        expect(res.json()).toEqual({ error: { code: 'bad_message', message: `body: content type "${type}" is not accepted: send the JSON body as application/json` } });
      }
      const ok = await app().inject({ method: 'POST', url, headers: { 'content-type': 'application/json; charset=utf-8' }, payload });
      expect(ok.statusCode).toBe(200);
    }
  });
});
