/**
 * T72: the server's log lines carry a tenant's task id (and other names it chose) as given; the control characters a
 * terminal acts on are written as JSON escapes, so a line parses to the same values and shows no raw CSI or bidi
 * override to the operator reading it.
 */
import { describe, expect, it } from 'vitest';
import { serverLogger } from '../../src/server/server-log.js';

function lines(log: (l: ReturnType<typeof serverLogger>) => void): string[] {
  const out: string[] = [];
  log(serverLogger('info', { write: (s: string) => void out.push(s) }));
  return out;
}

describe('the server log', () => {
  const task = 'tsk\u009b31mRED\u202eevil\u2066x\u0007\u001b[2J';
  it('escapes C1 controls and bidi overrides, as pino escapes C0 ones; the values are unchanged', () => {
    const [line] = lines((log) => log.info({ task, session: 'u1' }, 'session started'));
    // On the code before T72 (pino alone) the line holds U+009B and U+202E raw.
    expect(line).not.toMatch(/[\u0080-\u009f\u202a-\u202e\u2066-\u2069]/);
    // eslint-disable-next-line no-control-regex -- what must not be there
    expect(line!.trimEnd()).not.toMatch(/[\x00-\x1f]/);
    expect(line).toContain('\\u009b31mRED\\u202eevil\\u2066x');
    expect((JSON.parse(line!) as { task: string }).task).toBe(task);
  });

  it('escapes zero-width and other invisible format characters, a tag letter as its surrogate pair (T76)', () => {
    const hidden = 'tsk\u200bz\u200c\u200d\u2060\ufeff\u00ad\u{e0041}';
    const [line] = lines((log) => log.info({ task: hidden }, 'session started'));
    // On the code before T76 they are written raw.
    expect(line).not.toMatch(/\p{Cf}/u);
    expect(line).toContain('tsk\\u200bz\\u200c\\u200d\\u2060\\ufeff\\u00ad\\udb40\\udc41');
    expect((JSON.parse(line!) as { task: string }).task).toBe(hidden);
  });

  it('leaves other text as it is', () => {
    const [line] = lines((log) => log.info({ task: 'django__django-11099 é 中' }, 'ok'));
    expect(line).toContain('"task":"django__django-11099 é 中"');
  });
});
