/**
 * An end's patch is read a slice a turn (T55, src/server/end-patch.ts): a patch at the limit read in one go held the
 * event loop 90-140 ms, and seconds with a long path on each line. Other work runs between the slices, and the
 * class is the one read in one go.
 */
import { describe, expect, it } from 'vitest';
import { diffClass } from '../../src/core/rank/patch-class.js';
import { endPatch, PATCH_CHARS_PER_TURN } from '../../src/server/end-patch.js';
import { useBareRegistry } from './bare-registry.js';

const bare = useBareRegistry('steplens-end-patch-');

const head = 'diff --git a/pkg/mod.py b/pkg/mod.py\n--- a/pkg/mod.py\n+++ b/pkg/mod.py\n@@ -1 +1 @@\n';
const PATCH = head + '+x\n'.repeat(Math.floor((512 * 1024 - head.length) / 3));

/** Turns of the event loop taken while `work` settles. */
async function turnsDuring(work: unknown): Promise<number> {
  let turns = 0;
  let done = false;
  const tick = () => {
    if (done) return;
    turns += 1;
    setImmediate(tick);
  };
  setImmediate(tick);
  await work;
  done = true;
  return turns;
}

describe('endPatch', () => {
  it('reads a patch at the limit over many turns, into the class read in one go', async () => {
    const s = await bare.started('patch-turns');
    const pending = endPatch(bare.registry.stepBytes, s, PATCH);
    expect(pending).toBeInstanceOf(Promise);
    const turns = await turnsDuring(pending);
    expect(turns).toBeGreaterThanOrEqual(Math.floor(PATCH.length / PATCH_CHARS_PER_TURN) - 1);
    const want = diffClass(PATCH);
    expect(want.ok).toBe(true);
    expect(await pending).toEqual({ ok: true, value: want.ok ? want.value : undefined });
  });

  it('reads a small patch at once, and refuses one whose lines are too long to class, the session left open', async () => {
    const s = await bare.started('patch-small');
    const small = endPatch(bare.registry.stepBytes, s, `${head}+y = 1\n`);
    expect(small).not.toBeInstanceOf(Promise);
    expect(small).toEqual({ ok: true, value: (diffClass(`${head}+y = 1\n`) as { value: unknown }).value });
    const path = `src/${'p'.repeat(1000)}.py`;
    const long = `diff --git a/${path} b/${path}\n@@ -1 +1 @@\n` + '+x\n'.repeat(170_000);
    const refused = await endPatch(bare.registry.stepBytes, s, long);
    expect(refused.ok).toBe(false);
    if (!refused.ok) expect(refused.error.message).toMatch(/^end\.patch: its normalised source lines come to \d+ characters .*the session stays open/);
    expect(s.finishing).toBe(false);
  });
});
