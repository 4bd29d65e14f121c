/**
 * T70: frames that name no session and cannot be read (junk, binary) get at most 16 answers a second on a stream, then
 * one error counting the rest; refusals that name a session or a seq are each answered, as before.
 */
import { describe, expect, it } from 'vitest';
import { UNNAMED_ANSWERS_PER_WINDOW } from '../../src/server/unnamed-refusals.js';
import { Client, useApp, type Frame } from './helpers.js';

const server = useApp();
const JUNK = 200;

const isSummary = (f: Frame): boolean => f.type === 'error' && /more frames? naming no session/.test(String(f.message));
const unanswered = (f: Frame): number => Number(/^(\d+) more/.exec(String(f.message))?.[1]);

describe('frames naming no session', () => {
  it('a burst of 1-byte junk frames gets a few answers and one error counting the others', async () => {
    const c = await Client.connect(server().wsUrl);
    for (let i = 0; i < JUNK; i++) c.send(i % 2 === 0 ? 'x' : Buffer.from([1]), i % 2 === 1);
    await c.sync();
    // Every frame is accounted for: answered one by one, or counted in a window's closing error.
    let answered = 0;
    let counted = 0;
    let windows = 0;
    while (answered + counted < JUNK) {
      const f = await c.next((x) => x.type === 'error');
      if (isSummary(f)) {
        counted += unanswered(f);
        windows++;
      } else answered++;
    }
    expect(answered + counted).toBe(JUNK);
    // On the code before T70 all 200 are answered, each with its own `bad_message`.
    expect(answered).toBeLessThan(JUNK);
    expect(answered).toBeLessThanOrEqual(UNNAMED_ANSWERS_PER_WINDOW * (windows + 1));
    expect(windows).toBeGreaterThanOrEqual(1);
    // The stream still works.
    await c.sync();
    c.close();
  });

  it('refusals naming a session or a seq are each answered', async () => {
    const c = await Client.connect(server().wsUrl);
    const n = UNNAMED_ANSWERS_PER_WINDOW * 3;
    for (let i = 0; i < n; i++) c.send(i % 2 === 0 ? { type: 'launch', session: 's' } : { type: 'launch', seq: i });
    await c.sync();
    const errors = c.frames.filter((f) => f.type === 'error');
    expect(errors).toHaveLength(n);
    expect(errors.every((f) => f.code === 'bad_message' && (f.session === 's' || typeof f.seq === 'number'))).toBe(true);
    c.close();
  });
});
