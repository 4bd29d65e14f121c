/**
 * An error names what was wrong with the client's input without sending the input back whole (T54): a frame's
 * 100,000-character `type`, session id or unrecognized key came back whole in its `error` frame (up to the frame
 * limit, once per frame).
 */
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { formatIssues } from '../../src/core/config.js';
import { parseClientMessage } from '../../src/protocol/parse.js';

const huge = 'q'.repeat(100_000);

describe('error answers to huge input', () => {
  it('name a huge type, session id or unrecognized key by its start and its length', () => {
    const frames = {
      type: { type: huge },
      session: { type: 'start', session: huge, task: 't' },
      policyKey: { type: 'start', session: 's', task: 't', policy: { [huge]: 1 } },
    };
    for (const [name, frame] of Object.entries(frames)) {
      const r = parseClientMessage(JSON.stringify(frame));
      expect(r.ok, name).toBe(false);
      if (r.ok) continue;
      expect(JSON.stringify(r.error).length, name).toBeLessThan(2_000);
      expect(r.error.code).toBe('bad_message');
      if (name !== 'session') expect(r.error.message, name).toMatch(/\.\.\. \(1000\d\d characters\)/);
    }
  });

  it('still echo a session id that could name a session, and name a short bad type whole', () => {
    const r = parseClientMessage(JSON.stringify({ type: 'nope', session: 's'.repeat(128), seq: 3 }));
    expect(!r.ok && r.error).toEqual({ code: 'bad_message', message: expect.stringContaining('(got "nope")') as string, session: 's'.repeat(128), seq: 3 });
  });

  it('clip each path key and message of a zod error, listing at most three', () => {
    const schema = z.strictObject({ a: z.record(z.string(), z.number()) });
    const keys = Object.fromEntries(Array.from({ length: 50 }, (_, i) => [`${i}${huge}`, 1]));
    const r = schema.safeParse({ ...keys, a: { [huge]: 'x' } });
    expect(r.success).toBe(false);
    if (r.success) return;
    const text = formatIssues(r.error, 'body');
    expect(text.length).toBeLessThan(2_000);
    expect(text).toMatch(/^body(\.a\.q{64}\.\.\. \(100000 characters\)|): /);
  });
});
