/**
 * Review s42, low: `session.outcome()` after the session ended (or the client was closed) was dropped without a
 * trace: no throw, no rejection, no error event, and the final had no `passed`. It now throws naming why.
 */
import { describe, expect, it } from 'vitest';
import { connect } from '../../src/client/index.js';
import { ASTROID, readSteps, useApp } from '../server/helpers.js';

const app = useApp();

describe('outcome() when the session can no longer take it', () => {
  it('throws once end was called or the session ended, and once the client is closed', async () => {
    const [step] = await readSteps(ASTROID.fail);
    const client = await connect(app().url);
    const session = await client.start({ task: ASTROID.task });
    await session.step(step);
    const ending = session.end();
    expect(() => session.outcome(true)).toThrow(expect.objectContaining({ code: 'bad_message', session: session.id, message: `session ${session.id} is ending: send outcome before end` }) as Error);
    const final = await ending;
    expect(final.passed).toBeUndefined();
    expect(() => session.outcome(true)).toThrow(/has ended: send outcome before end/);

    const open = await client.start({ task: ASTROID.task });
    await client.close();
    expect(() => open.outcome(false)).toThrow(expect.objectContaining({ code: 'closed' }) as Error);
  });
});
