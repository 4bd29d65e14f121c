/**
 * F9: server-made session ids were `s-<ms base36>-<counter>` (found in ~700 probes of GET /v1/sessions) and any
 * connection could take a live session over with `resume`. Ids are now 128 random bits, and a session answers
 * (`resume`, GET /v1/sessions/:id) only to the token it was started with.
 */
import { describe, expect, it } from 'vitest';
import { Client, useApp } from './helpers.js';

const STEP = { tool: 'bash', action: { kind: 'shell', command: 'ls' } };
const open = useApp();
const locked = useApp({ tokens: ['alice-token', 'bob-token'] });

const auth = (token: string): Record<string, string> => ({ authorization: `Bearer ${token}` });

describe('session ids', () => {
  it('are 128 random bits, not a clock and a counter', async () => {
    const c = await Client.connect(open().wsUrl);
    const ids: string[] = [];
    for (let i = 0; i < 20; i++) {
      c.send({ type: 'start', task: 't' });
      ids.push(String((await c.nextOf('started')).session));
    }
    for (const id of ids) expect(id).toMatch(/^s-[0-9a-f]{32}$/);
    expect(new Set(ids).size).toBe(ids.length);
    // Consecutive ids share no prefix beyond `s-` more often than chance allows (a clock/counter id would share most of it).
    const shared = ids.slice(1).filter((id, i) => id.slice(0, 6) === ids[i]?.slice(0, 6)).length;
    expect(shared).toBeLessThan(3);
    c.close();
  });

  it('are not "." or "..", which no URL can name (review s42): refused at start; other dotted ids work', async () => {
    const c = await Client.connect(open().wsUrl);
    for (const id of ['.', '..']) {
      c.send({ type: 'start', session: id, task: 't' });
      const refused = await c.nextOf('error');
      expect(refused).toMatchObject({ code: 'bad_message', message: expect.stringMatching(/^start\.session: not "\." or "\.\.": URLs fold them/) as unknown });
    }
    for (const id of ['...', '.a', 'a..']) {
      c.send({ type: 'start', session: id, task: 't' });
      await c.nextOf('started', id);
      expect((await fetch(`${open().url}/v1/sessions/${id}`)).status).toBe(200);
    }
    c.close();
  });
});

describe('a session answers only to the token that started it', () => {
  it('refuses resume from another token and keeps the session where it is', async () => {
    const alice = await Client.connect(locked().wsUrl, auth('alice-token'));
    alice.send({ type: 'start', task: 't' });
    const id = String((await alice.nextOf('started')).session);
    alice.send({ type: 'step', session: id, seq: 0, step: STEP });
    await alice.nextOf('score', id);

    const bob = await Client.connect(locked().wsUrl, auth('bob-token'));
    bob.send({ type: 'resume', session: id, after: -1 });
    expect(await bob.nextOf('error')).toMatchObject({ code: 'unknown_session', session: id });
    bob.send({ type: 'step', session: id, seq: 1, step: STEP });
    expect(await bob.nextOf('error')).toMatchObject({ code: 'unknown_session' });

    // Still Alice's: her next step is scored on her connection.
    alice.send({ type: 'step', session: id, seq: 1, step: STEP });
    expect(await alice.nextOf('score', id)).toMatchObject({ seq: 1, t: 1 });

    // GET /v1/sessions/:id: the same rule.
    expect((await fetch(`${locked().url}/v1/sessions/${id}`, { headers: auth('bob-token') })).status).toBe(404);
    const mine = await fetch(`${locked().url}/v1/sessions/${id}`, { headers: auth('alice-token') });
    expect(mine.status).toBe(200);
    expect(((await mine.json()) as { steps: number }).steps).toBe(2);

    // Alice from a second connection (a reconnect) may resume it.
    const again = await Client.connect(locked().wsUrl, auth('alice-token'));
    again.send({ type: 'resume', session: id, after: 0 });
    expect(await again.nextOf('resumed', id)).toMatchObject({ last: 1 });
    expect(await again.nextOf('score', id)).toMatchObject({ seq: 1 });
    for (const c of [alice, bob, again]) c.close();
  });
});
