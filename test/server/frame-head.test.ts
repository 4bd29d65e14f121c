/** frameHead: the session and seq a refused (oversized) frame names, read without parsing it. */
import { describe, expect, it } from 'vitest';
import { frameHead } from '../../src/server/frame-head.js';
import { ASTROID, readSteps } from './helpers.js';

describe('frameHead', () => {
  it('reads session and seq of a step in any key order, over nested values, strings with brackets and escapes, bytes or text', async () => {
    const step = (await readSteps(ASTROID.fail))[8];
    const frames = [
      JSON.stringify({ type: 'step', session: 'w3-r17', seq: 8, step }),
      JSON.stringify({ step: { ...step, observation: '}]"\\ é ✓' }, seq: 8, session: 'w3-r17', type: 'step' }),
      `  {\n "type" : "step" , "session" : "w3\\u002dr17" ,\n "seq" : 8 , "step" : ${JSON.stringify(step)} }`,
    ];
    for (const f of frames) {
      expect(frameHead(f)).toEqual({ type: 'step', session: 'w3-r17', seq: 8 });
      expect(frameHead(Buffer.from(f))).toEqual({ type: 'step', session: 'w3-r17', seq: 8 });
    }
  });

  it('names only what is there: no seq but a step’s, no session that is not a string, nothing from a frame that is not an object', () => {
    expect(frameHead('{"type":"start","session":"s","task":"t","seq":3}')).toEqual({ type: 'start', session: 's' });
    expect(frameHead('{"type":"step","session":5,"seq":1.5}')).toEqual({ type: 'step' });
    expect(frameHead('{"type":"step","session":"s","step":"never closed')).toEqual({ type: 'step', session: 's' });
    // An end (its patch made it too large): named, so the refusal names end.patch; a session id longer than any is not (T54).
    expect(frameHead(JSON.stringify({ type: 'end', session: 's', patch: 'é'.repeat(100_000) }))).toEqual({ type: 'end', session: 's' });
    expect(frameHead(JSON.stringify({ type: 'end', session: 's'.repeat(129), patch: '' }))).toEqual({ type: 'end' });
    expect(frameHead(JSON.stringify({ type: 'x'.repeat(17), session: 's' }))).toEqual({ session: 's' });
    expect(frameHead('[{"type":"step","session":"s","seq":1}]')).toEqual({});
    expect(frameHead('not json')).toEqual({});
    // Fields past the frame's first 64 KiB are not looked for.
    expect(frameHead(JSON.stringify({ type: 'step', step: { observation: 'x'.repeat(70_000) }, session: 's', seq: 1 }))).toEqual({ type: 'step' });
  });
});
