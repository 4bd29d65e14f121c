/**
 * F1: keys that name Object.prototype members (`__proto__`, `valueOf`, ...) at any level of a `step` frame
 * once crashed the process from the fast path. Each is now one `bad_message` or the same stripped step zod
 * would give, the server stays up and the session keeps scoring.
 */
import { describe, expect, it } from 'vitest';
import { parseClientMessage, parseStepPayload } from '../../src/protocol/parse.js';
import { stepRecordSchema } from '../../src/formats/step-schema.js';
import { Client, useApp } from './helpers.js';

const KEYS = ['__proto__', 'valueOf', 'hasOwnProperty', 'toLocaleString', '__defineGetter__', '__lookupSetter__', 'isPrototypeOf', 'constructor', 'toString'];
const STEP = '{"tool":"bash","action":{"kind":"shell","command":"ls"},"tokens":{"prompt":1}}';

/** The frame with `"key":0` added to the envelope, the step, its action or its tokens (raw text: JSON.parse makes own `__proto__` keys). */
function frames(key: string, seq: number): string[] {
  const k = `${JSON.stringify(key)}:0`;
  return [
    `{"type":"step","session":"s","seq":${seq},"step":${STEP},${k}}`,
    `{"type":"step","session":"s","seq":${seq},"step":{"tool":"bash","action":{"kind":"shell","command":"ls"},${k}}}`,
    `{"type":"step","session":"s","seq":${seq},"step":{"tool":"bash","action":{"kind":"shell","command":"ls",${k}}}}`,
    `{"type":"step","session":"s","seq":${seq},"step":{"tool":"bash","action":{"kind":"shell","command":"ls"},"tokens":{${k}}}}`,
    `{"type":"step",${k}}`,
  ];
}

describe('prototype-named keys', () => {
  it('parse without throwing, and the fast path agrees with zod on own keys only', () => {
    for (const key of KEYS) {
      for (const raw of frames(key, 0)) {
        const parsed = parseClientMessage(raw);
        if (!parsed.ok) {
          expect(parsed.error.code).toBe('bad_message');
          continue;
        }
        if (parsed.value.type !== 'step') throw new Error('expected a step message');
        const step = parseStepPayload(parsed.value.step);
        const viaZod = stepRecordSchema.safeParse((JSON.parse(raw) as { step: unknown }).step);
        expect(step.ok).toBe(viaZod.success);
        if (step.ok && viaZod.success) expect(JSON.stringify(step.value)).toBe(JSON.stringify({ ...viaZod.data, t: viaZod.data.t ?? 0 }));
        if (step.ok) {
          expect(Object.hasOwn(step.value, key)).toBe(false);
          expect(Object.hasOwn(step.value.action, key)).toBe(false);
        }
      }
    }
  });

  describe('over a real socket', () => {
    const server = useApp();

    it('keeps the server and the session up: each frame is scored or refused, and the next step is scored in order', async () => {
      const c = await Client.connect(server().wsUrl);
      c.send({ type: 'start', session: 's', task: 'no-such-task' });
      await c.nextOf('started', 's');
      let seq = 0;
      for (const key of KEYS) {
        for (let i = 0; i < frames(key, 0).length; i++) {
          c.ws.send(frames(key, seq)[i] ?? '');
          const answer = await c.next((f) => f.type === 'score' || f.type === 'error');
          if (answer.type === 'score') {
            expect(answer.t).toBe(seq);
            seq++;
          } else expect(answer.code).toBe('bad_message');
        }
      }
      expect(seq).toBeGreaterThan(KEYS.length);
      c.send({ type: 'step', session: 's', seq, step: JSON.parse(STEP) });
      expect((await c.nextOf('score', 's')).t).toBe(seq);
      expect((await fetch(`${server().url}/healthz`)).status).toBe(200);
      c.close();
    });
  });
});
