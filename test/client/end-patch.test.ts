/**
 * `session.end({ patch })` (issue 26 item 3): the run's final diff goes with the end, the final carries its class, and
 * POST /v1/rank votes with the session. A patch over the limit is refused before it is sent, one the server refuses
 * (not a diff) rejects with its code; the session stays open and ends with its patch after either; the end sent
 * again after a reconnect carries the patch. On a real run (facebookresearch__hydra-1915, gpt-5: its submitted diff).
 */
import { describe, expect, it } from 'vitest';
import { connect } from '../../src/client/index.js';
import { useRelays } from './relay.js';
import { createFinalPatchTracker, normalisedDiff } from '../../src/core/rank/final-patch.js';
import { patchClass } from '../../src/core/rank/patch-class.js';
import { labelSteps } from '../../src/core/state-builder.js';
import { MAX_END_PATCH_CHARS } from '../../src/protocol/client-messages.js';
import type { RankResponse } from '../../src/protocol/rank-bodies.js';
import type { Step } from '../../src/core/types.js';
import { defaultAnalyzers } from '../../src/syntax/index.js';
import { CORPUS, readSteps, useApp } from '../server/helpers.js';

const app = useApp();
const TASK = 'facebookresearch__hydra-1915';
const FILE = `${CORPUS}/christsakm__Trajectories/GOOD_EXAMPLES/${TASK}/trace_01_gpt-5-2025-08-07/${TASK}.traj`;

/** The run's steps, its normalised final patch (the trajectory path) and the diff it submitted. */
async function hydra(): Promise<{ steps: Step[]; patch: string[]; diff: string }> {
  const steps = await readSteps(FILE);
  const tracker = createFinalPatchTracker();
  let diff = '';
  labelSteps(steps, defaultAnalyzers()).forEach(({ label, state }, i) => {
    tracker.add(steps[i]!, state, label);
    const seen = steps[i]!.observation;
    if (state.kind === 'finish' && seen !== undefined && normalisedDiff(seen) !== null) diff = seen;
  });
  return { steps, patch: tracker.value(), diff };
}

const startRelay = useRelays(() => app().wsUrl);

/** A relay in front of the server that drops the first `end` it is sent and closes that client socket. */
function droppingFirstEnd(ends: Array<Record<string, unknown>>): Promise<string> {
  return startRelay(() => ({
    fromClient: (text, forward, down) => {
      const m = JSON.parse(text) as Record<string, unknown>;
      if (m.type === 'end' && ends.push(m) === 1) down.terminate();
      else forward();
    },
  }));
}

describe('session.end({ patch })', () => {
  it('sends the patch; the final keeps its class; refusals leave the session open', async () => {
    const { steps, patch, diff } = await hydra();
    const client = await connect(app().url);
    const session = await client.start({ task: TASK, session: 'client-vote' });
    for (const step of steps) await session.step(step);
    await expect(session.end({ patch: 'x'.repeat(MAX_END_PATCH_CHARS + 1) })).rejects.toMatchObject({
      code: 'bad_message',
      message: `end: patch of ${MAX_END_PATCH_CHARS + 1} characters is over the server's limit of ${MAX_END_PATCH_CHARS}; the session stays open`,
    });
    // Within the characters, not the frame: 3 bytes a character in UTF-8. Refused before it is sent, by its bytes.
    await expect(session.end({ patch: '€'.repeat(MAX_END_PATCH_CHARS) })).rejects.toMatchObject({
      code: 'too_large',
      session: 'client-vote',
      message: expect.stringMatching(/^end\.patch: 1572864 bytes in UTF-8 \(524288 characters\) make the end's frame \d+ bytes, over the frame limit of 1048576; the session stays open/) as string,
    });
    await expect(session.end({ patch: 'M hydra/core/utils.py' })).rejects.toMatchObject({ code: 'bad_message', message: expect.stringMatching(/^end\.patch: holds no 'diff --git' header/) as string });
    const final = await session.end({ patch: diff });
    expect(final.steps).toBe(steps.length);
    expect((final as { patch?: unknown }).patch).toEqual(patchClass(patch));
    const res = await fetch(`${app().url}/v1/rank`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ basis: 'vote', runs: [{ session: 'client-vote' }] }) });
    const ranked = (await res.json()) as RankResponse;
    expect([ranked.by, ranked.runs[0]!.vote]).toEqual(['vote', 1]);
    await client.close();
  });

  it('sends the end again with its patch after a reconnect', async () => {
    const { steps, patch, diff } = await hydra();
    const ends: Array<Record<string, unknown>> = [];
    const client = await connect(await droppingFirstEnd(ends), { reconnect: { retries: 5, delayMs: 20 } });
    const session = await client.start({ task: TASK, session: 'client-vote-again' });
    for (const step of steps) await session.step(step);
    const final = await session.end({ patch: diff });
    expect(ends.map((e) => e.patch)).toEqual([diff, diff]);
    expect((final as { patch?: unknown }).patch).toEqual(patchClass(patch));
    await client.close();
  });
});
