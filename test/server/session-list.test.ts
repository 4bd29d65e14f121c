/**
 * `GET /v1/sessions` (T40): a page is built in slices, one at a time, a few of a tenant's at most, and answers the
 * same bytes as before (`JSON.stringify` of the summaries, as fastify wrote them): rows in order, `next`, another
 * tenant's sessions left out. Turns are counted, not timed.
 */
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_CONFIG } from '../../src/core/config.js';
import { Connection } from '../../src/server/connection.js';
import { createMetrics } from '../../src/server/metrics.js';
import { resolveOptions } from '../../src/server/options.js';
import { SessionRegistry } from '../../src/server/session-registry.js';
import { LIST_ROWS_PER_TURN, sessionPage, sessionPageJson } from '../../src/server/session-list.js';
import { sessionSummary } from '../../src/server/session-view.js';
import { StepViews } from '../../src/server/step-views.js';
import { ReferenceStore } from '../../src/store/reference-store.js';
import { defaultAnalyzers } from '../../src/syntax/index.js';
import { loopTurnsDuring } from '../loop-turns.js';
import { bearer, Client, recordingSocket, removeDir, startApp, tempDir, type Running } from './helpers.js';

const STEP = { tool: 'bash', action: { kind: 'shell', command: 'ls' }, observation: 'a.py' };
const ROWS = 260;

let dir: string;
let srv: Running;
let registry: SessionRegistry;

/** Starts `n` sessions of `token`'s tenant over the app's stream, one step each, every other one ended (ended ones are listed too). */
async function streamed(token: string, prefix: string, n: number): Promise<void> {
  const c = await Client.connect(srv.wsUrl, bearer(token));
  for (let i = 0; i < n; i++) {
    const id = `${prefix}${i}`;
    c.send({ type: 'start', session: id, task: 't' });
    c.send({ type: 'step', session: id, seq: 0, step: STEP });
    if (i % 2 === 0) c.send({ type: 'end', session: id });
  }
  await c.nextOf('score', `${prefix}${n - 1}`, 60_000);
  c.close();
}

beforeAll(async () => {
  dir = await tempDir();
  srv = await startApp({
    dataDir: `${dir}/app`,
    tokens: [
      { token: 'a', tenant: 'a' },
      { token: 'b', tenant: 'b' },
    ],
  });
  await streamed('a', 'a', 30);
  await streamed('b', 'b', 5);
  const store = await ReferenceStore.open({ dataDir: `${dir}/registry` });
  registry = new SessionRegistry({ store, analyzers: defaultAnalyzers(), metrics: createMetrics(store), log: pino({ level: 'silent' }), options: resolveOptions({}), connections: new Map() });
  for (let i = 0; i < ROWS; i++) {
    const started = await registry.start({ type: 'start', session: `s${i}`, task: 't' }, new Connection(i + 1, recordingSocket(), 1 << 24));
    if (!started.ok) throw new Error(started.error.message);
    started.value.step(0, STEP);
    if (i % 3 === 0) await registry.end(started.value, 'end');
  }
}, 120_000);
afterAll(async () => {
  await srv.app.close();
  await registry.endAll();
  await removeDir(dir);
});

describe('GET /v1/sessions in slices', () => {
  it('writes what JSON.stringify of the page wrote, and summarises LIST_ROWS_PER_TURN rows a turn', async () => {
    const all = [...registry.sessions.values()];
    const first = sessionPage(all, { all: false, tenant: all[0]!.tenant, after: 0, limit: 150 });
    expect(first.rows).toEqual(all.slice(0, 150));
    expect(first.next).toBe(String(all[149]!.ordinal));
    const { value, turns } = await loopTurnsDuring(() => sessionPageJson(first, DEFAULT_CONFIG));
    expect(value.toString()).toBe(JSON.stringify({ sessions: first.rows.map((s) => sessionSummary(s, DEFAULT_CONFIG)), next: first.next }));
    expect(turns).toBeGreaterThanOrEqual(Math.floor(150 / LIST_ROWS_PER_TURN));
    const rest = sessionPage(all, { all: true, tenant: undefined, after: Number(first.next), limit: 1000 });
    expect(rest).toEqual({ rows: all.slice(150) });
    expect((await sessionPageJson(rest, DEFAULT_CONFIG)).toString()).toBe(JSON.stringify({ sessions: rest.rows.map((s) => sessionSummary(s, DEFAULT_CONFIG)) }));
  });

  it('answers a tenant its own sessions page by page, as JSON.stringify writes them', async () => {
    const page = async (q: string): Promise<{ text: string; body: { sessions: Array<{ session: string }>; next?: string } }> => {
      const res = await fetch(`${srv.url}/v1/sessions?${q}`, { headers: bearer('a') });
      expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
      const text = await res.text();
      return { text, body: JSON.parse(text) as { sessions: Array<{ session: string }>; next?: string } };
    };
    const first = await page('limit=20');
    expect(first.text).toBe(JSON.stringify(first.body));
    expect(first.body.sessions.map((s) => s.session)).toEqual(Array.from({ length: 20 }, (_, i) => `a${i}`));
    const second = await page(`limit=20&after=${first.body.next}`);
    expect(second.body.sessions.map((s) => s.session)).toEqual(Array.from({ length: 10 }, (_, i) => `a${20 + i}`));
    expect(second.body.next).toBeUndefined();
  });

  it('refuses a tenant past its pages queued, naming them', () => {
    const lists = new StepViews(1, 'session pages');
    void lists.run('a', () => new Promise((resolve) => setTimeout(resolve, 10)));
    expect(lists.refusal('a')).toBe('1 session pages of this tenant are queued, the limit: retry once they are answered');
    expect(lists.refusal('b')).toBeUndefined();
  });
});
