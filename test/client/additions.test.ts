/**
 * Review s42 #4: "Additions are fine" (protocol.md), yet one frame with a new signal kind, error code or message
 * type made the TS client reject every pending call on the connection with `bad_frame`, though the server had
 * scored those steps (a caller retrying them had them scored twice). Unknown types are now ignored, unknown enum
 * values and fields accepted, and no pending call fails.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { connect } from '../../src/client/index.js';
import { useRelays } from './relay.js';
import type { Step } from '../../src/core/types.js';
import { parseServerFrame } from '../../src/client/frames.js';
import { ASTROID, readSteps, useApp } from '../server/helpers.js';

const app = useApp();
let steps: Step[];
const startRelay = useRelays(() => app().wsUrl);

beforeAll(async () => {
  steps = await readSteps(ASTROID.fail);
});

type Frame = Record<string, unknown>;

/** A relay in front of the server that sends `extra(frame)` right after the first score frame (a newer server's frames). */
function relay(extra: (score: Frame) => Frame[]): Promise<string> {
  return startRelay(() => {
    let injected = false;
    return {
      fromServer: (text, down) => {
        const frame = JSON.parse(text) as Frame;
        if (injected || frame.type !== 'score') return;
        injected = true;
        for (const e of extra(frame)) down.send(JSON.stringify(e));
      },
    };
  });
}

const ADDITIONS: Record<string, (score: Frame) => Frame[]> = {
  'a new signal kind': (f) => [{ type: 'signal', session: f.session, seq: f.seq, t: f.t, kind: 'tool_error', severity: 'warn', steps: [f.t], message: 'a new kind' }],
  'a new error code': () => [{ type: 'error', code: 'rate_limited', message: 'a new code' }],
  'a new message type': () => [{ type: 'notice', message: 'server will restart in 5 min' }],
  // The same step again (dropped by its t), with a tier, a stage and a field this client does not know.
  'new fields and enum values in a known frame': (f) => [{ ...f, tier: 'Heroic', stage: 'R', confidence: 0.3 }],
};

describe('protocol additions', () => {
  for (const [what, extra] of Object.entries(ADDITIONS)) {
    it(`${what}: no pending call fails, each step is scored once`, async () => {
      const client = await connect(await relay(extra));
      const errors: unknown[] = [];
      client.onError((e) => errors.push(e));
      const [a, b] = await Promise.all([client.start({ task: ASTROID.task }), client.start({ task: ASTROID.task })]);
      const answers = await Promise.all([a.step(steps[0]), b.step(steps[0]), a.step(steps[1])]);
      expect(answers.map((frames) => frames.map((f) => [f.seq, f.t]))).toEqual([[[0, 0]], [[0, 0]], [[1, 1]]]);
      await client.ping();
      expect([(await a.end()).steps, (await b.end()).steps]).toEqual([2, 1]);
      if (what === 'a new signal kind') expect(a.signals.map((s) => s.kind as string)).toContain('tool_error');
      if (what === 'a new error code') expect(errors).toEqual([expect.objectContaining({ code: 'rate_limited' })]);
      else expect(errors).toEqual([]);
      await client.close();
    });
  }

  it('a frame missing a field is still malformed', () => {
    expect(parseServerFrame(JSON.stringify({ type: 'score', session: 's', seq: 0 }))).toMatchObject({ ok: false, error: expect.stringMatching(/^type "score": frame\./) as unknown });
    expect(parseServerFrame(JSON.stringify({ type: 'signal', session: 's', seq: 0, t: 0, kind: 7, severity: 'warn', steps: [], message: '' }))).toMatchObject({ ok: false });
    expect(parseServerFrame(JSON.stringify({ type: 'notice' }))).toEqual({ ok: true, message: undefined });
  });
});
