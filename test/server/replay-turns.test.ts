/**
 * A session rebuilt from the journal (with Redis: a resume on another replica, a GET of a session it does not
 * hold) replays its steps a slice of time at a time (src/server/session-replay.ts): a page of up to 512 steps
 * replayed in one go held every client of the replica 0.5-1.7 s (a GET of a 2,000-step session on the replica
 * without it). A journal that answers at once (no I/O between pages) shows it: other work now runs between the
 * replayed steps, and the rebuilt session is the one stepped directly.
 */
import { describe, expect, it } from 'vitest';
import { loopTurnsDuring } from '../loop-turns.js';
import { DEFAULT_POLICY } from '../../src/core/policy.js';
import { UNIFORM_PRIOR } from '../../src/core/prior.js';
import { defaultAnalyzers } from '../../src/syntax/index.js';
import { resolveOptions } from '../../src/server/options.js';
import { buildSession } from '../../src/server/session-factory.js';
import { rebuild } from '../../src/server/session-replay.js';
import type { SessionHead, SessionJournal } from '../../src/store/session-journal.js';

const STEPS = 1500;
const step = (i: number) => ({ t: i, tool: 'bash', action: { kind: 'shell', command: `grep -rn name${i} src/ | head -${i % 9}` }, observation: `src/a${i % 13}.py:1: x` });

describe('rebuilding a session from the journal', () => {
  it('lets other work run between its replayed steps, and ends as the session stepped directly', async () => {
    const frames = Array.from({ length: STEPS }, (_, seq) => Buffer.from(JSON.stringify({ type: 'step', session: 'long', seq, step: step(seq) })));
    const journal = {
      frames: (_id: string, from: number, count: number) => Promise.resolve(frames.slice(from, from + count)),
      resolve: () => Promise.resolve({ kind: 'prior', prior: UNIFORM_PRIOR }),
    } as unknown as SessionJournal;
    const head: SessionHead = {
      record: { task: 'replay-turns', format: 'steplens', learn: false, policy: DEFAULT_POLICY, reference: { kind: 'prior', prior: UNIFORM_PRIOR }, createdAt: 1, tenant: 't', role: 'agent' },
      length: STEPS,
    };
    const options = resolveOptions({});
    const { value: rebuilt, turns } = await loopTurnsDuring(() => rebuild({ journal, analyzers: defaultAnalyzers(), options }, 'long', head));
    // Before, the pages came back without I/O and the whole replay ran without a turn of the loop.
    expect(turns).toBeGreaterThan(1);

    const direct = buildSession(
      { id: 'long', task: 'replay-turns', format: 'steplens', learn: false, policy: DEFAULT_POLICY, reference: { kind: 'prior', prior: UNIFORM_PRIOR }, principal: { tenant: 't', role: 'agent' } },
      defaultAnalyzers(),
      options,
    );
    for (let seq = 0; seq < STEPS; seq++) direct.step(seq, step(seq));
    expect(rebuilt.lastSeq).toBe(STEPS - 1);
    expect(rebuilt.report()).toEqual(direct.report());
  }, 60_000);
});
