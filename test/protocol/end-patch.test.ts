/** `end.patch` and `final.patch` on the wire (issue 26 item 3: a vote over live sessions; proto/README.md). */
import { describe, expect, it } from 'vitest';
import { MAX_END_PATCH_CHARS } from '../../src/protocol/client-messages.js';
import { parseClientMessage } from '../../src/protocol/parse.js';
import { finalMessageSchema } from '../../src/protocol/server-messages.js';

const parse = (m: unknown) => parseClientMessage(JSON.stringify(m));

describe('end.patch', () => {
  it('is optional text of at most MAX_END_PATCH_CHARS characters; anything else is one bad_message naming it and the session', () => {
    expect(parse({ type: 'end', session: 's' })).toEqual({ ok: true, value: { type: 'end', session: 's' } });
    expect(parse({ type: 'end', session: 's', patch: '' })).toEqual({ ok: true, value: { type: 'end', session: 's', patch: '' } });
    const longest = 'é'.repeat(MAX_END_PATCH_CHARS);
    expect(parse({ type: 'end', session: 's', patch: longest }).ok).toBe(true);
    expect(parse({ type: 'end', session: 's', patch: `${longest}x` })).toEqual({
      ok: false,
      error: { code: 'bad_message', session: 's', message: `end.patch: at most ${MAX_END_PATCH_CHARS} characters (the session stays open: send end again with a shorter patch, or none)` },
    });
    for (const patch of [7, null, ['diff --git a/x b/x'], { text: '' }]) {
      expect(parse({ type: 'end', session: 's', patch }), JSON.stringify(patch)).toEqual({
        ok: false,
        error: { code: 'bad_message', session: 's', message: 'end.patch: expected a string: the unified diff of the run\'s final work (git diff), "" for none' },
      });
    }
  });
});

describe('final.patch', () => {
  it('is the class of the patch: a key (or null) and a count of lines', () => {
    const shape = finalMessageSchema.shape.patch;
    expect(shape.safeParse({ key: 'ab'.repeat(32), lines: 4 }).success).toBe(true);
    expect(shape.safeParse({ key: null, lines: 0 }).success).toBe(true);
    expect(shape.safeParse({ key: 'x' }).success).toBe(false);
    expect(shape.safeParse(undefined).success).toBe(true); // absent unless the end carried one
  });
});
