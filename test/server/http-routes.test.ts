/** The HTTP routes' answers to good and bad requests, through fastify's `inject` (HTTP only: no port, no socket). */
import type { LightMyRequestResponse } from 'fastify';
import { describe, expect, it } from 'vitest';
import { ASTROID, readDoc, useInjectApp } from './helpers.js';

const app = useInjectApp({ limits: { maxBodyBytes: 4 * 1024 * 1024 } });

const post = (url: string, body: unknown) => app().inject({ method: 'POST', url, headers: { 'content-type': 'application/json' }, payload: typeof body === 'string' ? body : JSON.stringify(body) });
const get = (url: string) => app().inject({ method: 'GET', url });

function errorOf(res: LightMyRequestResponse): { status: number; code: string; message: string } {
  return { status: res.statusCode, ...res.json<{ error: { code: string; message: string } }>().error };
}

describe('HTTP bodies', () => {
  it('answers 400 naming the field for bad bodies', async () => {
    const doc = await readDoc(ASTROID.fail);
    expect(errorOf(await post('/v1/score', { trajectory: doc }))).toMatchObject({ status: 400, code: 'bad_message', message: expect.stringMatching(/^body\.task: /) });
    expect(errorOf(await post('/v1/score', { task: 't' }))).toMatchObject({ status: 400, message: expect.stringMatching(/^body\.trajectory: /) });
    expect(errorOf(await post('/v1/score', { task: 't', trajectory: doc, format: 'word' }))).toMatchObject({
      status: 400,
      message: expect.stringMatching(/^body\.format: expected one of auto, steplens, openhands, swe-agent, mini-swe-agent, atif/),
    });
    expect(errorOf(await post('/v1/score', { task: 't', trajectory: doc, passed: 'yes' }))).toMatchObject({ status: 400, message: expect.stringMatching(/^body\.passed: /) });
    expect(errorOf(await post('/v1/score', { task: 't', trajectory: doc, policy: { budget: { maxSteps: -1 } } }))).toMatchObject({
      status: 400,
      message: expect.stringMatching(/^body\.policy\.budget\.maxSteps: /),
    });
    expect(errorOf(await post('/v1/score', '{"task": '))).toMatchObject({ status: 400, code: 'bad_message' });
    expect(errorOf(await post('/v1/score', { task: 't', trajectory: { hello: 'world' } }))).toMatchObject({
      status: 400,
      code: 'unknown_format',
      message: expect.stringMatching(/^body\.trajectory: /),
    });
    expect(errorOf(await post('/v1/tasks/x/references', { trajectory: 5 }))).toMatchObject({ status: 400 });
    expect(errorOf(await post('/v1/score', { task: 't', trajectory: 'x'.repeat(5 * 1024 * 1024) }))).toMatchObject({ status: 413, code: 'too_large' });
  });

  it('answers 404 for unknown sessions, tasks and routes', async () => {
    expect(errorOf(await get('/v1/sessions/nope'))).toMatchObject({ status: 404, code: 'unknown_session' });
    expect(errorOf(await get('/v1/tasks/nope/pta'))).toMatchObject({ status: 404, code: 'unknown_task' });
    expect(errorOf(await get('/v2/nothing'))).toMatchObject({ status: 404, code: 'unknown_route' });
  });

  it('scores against the prior for a task without PTA, and serves health, readiness and metrics', async () => {
    const res = await post('/v1/score', { task: 'no-such-task', format: 'mini-swe-agent', trajectory: await readDoc(ASTROID.fail) });
    expect(res.statusCode).toBe(200);
    const report = res.json<{ reference: unknown; score: { struct: unknown } }>();
    expect(report.reference).toEqual({ kind: 'prior' });
    expect(report.score.struct).toBeNull();
    expect((await get('/healthz')).json()).toEqual({ status: 'ok' });
    expect((await get('/readyz')).statusCode).toBe(200);
    const metrics = (await get('/metrics')).body;
    for (const name of [
      'steplens_steps_scored_total',
      'steplens_step_latency_seconds',
      'steplens_active_sessions',
      'steplens_active_connections',
      'steplens_signals_fired_total',
      'steplens_refusals_total',
      'steplens_pta_cache_hits_total',
      'steplens_pta_cache_misses_total',
      'steplens_pta_cache_entries',
    ]) {
      expect(metrics).toContain(name);
    }
    expect(metrics).toMatch(/steplens_refusals_total\{code="bad_message"\} [1-9]/);
  });
});
