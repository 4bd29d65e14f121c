/**
 * `timeoutMs` (T60): a server that answers the heartbeat's pings (ws answers them by itself) but never a frame held
 * `start`, `step`, `end` and `ping` for ever. A relay holds the client's messages to make the server silent, then lets
 * them through: the calls rejected `timeout` naming what waited, and the late answers still land where the client
 * keeps them, with nothing sent twice.
 */
import { describe, expect, it, vi } from 'vitest';
import { connect } from '../../src/client/index.js';
import { DEFAULT_TIMEOUT_MS, timeoutOption, withDeadline } from '../../src/client/deadline.js';
import { ASTROID, readSteps, useApp } from '../server/helpers.js';
import { useRelays } from './relay.js';

const app = useApp();
const relay = useRelays(() => app().wsUrl);

/** A relay whose client messages wait while `hold.on`, each kept as its text and the call that passes it on. */
async function silentRelay(): Promise<{ url: string; hold: { on: boolean }; held: Array<{ text: string; forward: () => void }> }> {
  const hold = { on: false };
  const held: Array<{ text: string; forward: () => void }> = [];
  const url = await relay(() => ({ fromClient: (text, forward) => (hold.on ? held.push({ text, forward }) : forward()) }));
  return { url, hold, held };
}

function release(h: { hold: { on: boolean }; held: Array<{ forward: () => void }> }): void {
  h.hold.on = false;
  for (const m of h.held.splice(0)) m.forward();
}

/** A client (timeoutMs 2 s) through a silent relay, a session open on it, and the real run's steps. */
async function openSession() {
  const steps = await readSteps(ASTROID.fail);
  const h = await silentRelay();
  const client = await connect(h.url, { timeoutMs: 2000 });
  const session = await client.start({ task: ASTROID.task });
  return { steps, h, client, session };
}

/** The held messages of one type. */
function heldOf(h: { held: Array<{ text: string }> }, type: string): Array<{ text: string }> {
  return h.held.filter((m) => (JSON.parse(m.text) as { type: string }).type === type);
}

describe('client timeoutMs', () => {
  it('a start not answered rejects timeout and gives its id up; a late started is ignored', { timeout: 15_000 }, async () => {
    const h = await silentRelay();
    const client = await connect(h.url, { timeoutMs: 2000 });
    h.hold.on = true;
    const late = await client.start({ task: ASTROID.task, session: 'held-start' }).catch((e: unknown) => e);
    expect(late).toMatchObject({ code: 'timeout', session: 'held-start', message: expect.stringMatching(/^no started within 2000 ms for session held-start/) });
    release(h);
    await client.ping(); // the late started has come (and was ignored)
    // The client gave the id up, so the server is the one to refuse it now: it opened the session late.
    await expect(client.start({ task: ASTROID.task, session: 'held-start' })).rejects.toMatchObject({ code: 'duplicate_session' });
    await client.close();
  });

  it('a step and a ping not answered reject timeout; the step stays in flight, its late frames land, seqs go on', { timeout: 15_000 }, async () => {
    const { steps, h, client, session } = await openSession();
    const seen: number[] = [];
    session.onScore((f) => seen.push(f.seq));
    h.hold.on = true;
    const [step, pong] = await Promise.all([session.step(steps[0]).catch((e: unknown) => e), client.ping().catch((e: unknown) => e)]);
    expect(step).toMatchObject({ code: 'timeout', session: session.id, seq: 0, message: expect.stringMatching(/^no answer within 2000 ms to step 0, which stays in flight/) });
    expect(pong).toMatchObject({ code: 'timeout', message: 'no pong within 2000 ms' });
    expect(heldOf(h, 'step')).toHaveLength(1);
    release(h);
    await vi.waitFor(() => expect(session.scores).toHaveLength(1));
    expect(seen).toEqual([0]);
    const next = await session.step(steps[1]);
    expect(next.map((f) => f.seq)).toEqual([1]);
    expect(session.scores.map((f) => f.t)).toEqual([0, 1]);
    await client.close();
  });

  it('an end not answered rejects timeout; end() again waits for the same end, sent once', { timeout: 15_000 }, async () => {
    const { steps, h, client, session } = await openSession();
    await session.step(steps[0]);
    h.hold.on = true;
    await expect(session.end()).rejects.toMatchObject({ code: 'timeout', session: session.id, message: expect.stringMatching(/^no final within 2000 ms/) });
    const again = session.end();
    await new Promise((r) => setTimeout(r, 50));
    expect(heldOf(h, 'end')).toHaveLength(1);
    release(h);
    await expect(again).resolves.toMatchObject({ type: 'final', steps: 1 });
    expect(session.final).toMatchObject({ type: 'final', steps: 1 });
    await client.close();
  });

  it('timeoutMs is checked: 120 s by default, 0 for no deadline, anything else refused naming it', async () => {
    expect(timeoutOption(undefined)).toBe(DEFAULT_TIMEOUT_MS);
    expect(DEFAULT_TIMEOUT_MS).toBe(120_000);
    const answer = Promise.resolve(1);
    expect(withDeadline(answer, 0, () => new Error('never') as never)).toBe(answer);
    for (const bad of [-1, Number.NaN, Infinity, '5' as unknown as number]) {
      await expect(connect(app().url, { timeoutMs: bad })).rejects.toThrow(/^connect: timeoutMs must be a number of milliseconds, 0 or more/);
    }
  });
});
