/**
 * The sweep compacts the sessions idle for COMPACT_IDLE_MS (their texts deflated, `Session.compact`), once per idle
 * spell, and no other: and a session compacted between its steps sends the frames, views, report and final a session
 * never compacted sends (bench/README.md, "Memory per session, sixth pass").
 */
import { describe, expect, it, vi } from 'vitest';
import { LazyText } from '../../src/core/memory/packed-text.js';
import { Session } from '../../src/server/session.js';
import { COMPACT_IDLE_MS } from '../../src/server/idle-compact.js';
import { sessionViewInSteps } from '../../src/server/session-view.js';
import { ASTROID, readSteps } from './helpers.js';
import { seen, useBareRegistry } from './bare-registry.js';

const bare = useBareRegistry('steplens-compact-');
const started = (id: string): Promise<Session> => bare.started(id);

describe('idle sessions compacted by the sweep', () => {
  it('compacts a session idle for COMPACT_IDLE_MS once per idle spell, not one that stepped since', async () => {
    const steps = await readSteps(ASTROID.fail);
    const idle = await started('idle');
    const busy = await started('busy');
    const last = steps.length - 1;
    steps.slice(0, last).forEach((step, seq) => {
      idle.step(seq, step);
      busy.step(seq, step);
    });
    const now = Date.now();
    idle.lastActivity = now - COMPACT_IDLE_MS;
    busy.lastActivity = now - COMPACT_IDLE_MS + 1;
    const compact = vi.spyOn(Session.prototype, 'compact');
    try {
      await bare.registry.sweep(now);
      expect(compact.mock.contexts).toEqual([idle]);
      expect(compact.mock.results.map((r) => r.value as boolean)).toEqual([true]);
      // At the next sweep: nothing more to do for the first until it steps again; the second is idle long enough now.
      await bare.registry.sweep(now + 1);
      expect(compact.mock.contexts).toEqual([idle, busy]);
      // A step, then idle again: compacted again.
      idle.step(last, steps[last]);
      idle.lastActivity = now - COMPACT_IDLE_MS;
      await bare.registry.sweep(now + 2);
      expect(compact.mock.contexts).toEqual([idle, busy, idle]);
      expect(compact.mock.results.map((r) => r.value as boolean)).toEqual([true, true, true]);
    } finally {
      compact.mockRestore();
    }
    expect(bare.registry.openCount()).toBe(2);
    expect(idle.ended || busy.ended).toBe(false);
  });

  it('sends the frames, states, report, view and final of a session never compacted', async () => {
    const steps = await readSteps(ASTROID.fail);
    const plain = await started('plain');
    const compacted = await started('compacted');
    const sent = { plain: [] as unknown[], compacted: [] as unknown[] };
    const zlib = process.getBuiltinModule('node:zlib');
    const reads = vi.spyOn(zlib, 'inflateRawSync');
    const cool = vi.spyOn(LazyText.prototype, 'cool');
    const adopt = vi.spyOn(LazyText.prototype, 'adopt');
    let cooledByCompact = 0;
    for (const [seq, step] of steps.entries()) {
      sent.plain.push(plain.step(seq, structuredClone(step)));
      sent.compacted.push(compacted.step(seq, structuredClone(step)));
      // Idle between most steps (texts deflated), then read back by the next.
      if (seq % 3 !== 2) {
        const before = cool.mock.calls.length;
        expect(compacted.compact()).toBe(true);
        cooledByCompact += cool.mock.calls.length - before;
      }
      expect(seen(compacted, sent.compacted)).toBe(seen(plain, sent.plain));
    }
    // Its texts were sent cold by the compactions, and read back from their deflated form by later steps: inflated, or
    // given an equal text a step packed again (the shared pool's digest, pool-digest.test.ts). Counted by the texts'
    // own calls, not by zlib's alone: equal long texts are deflated once for every session keeping them, this test's
    // plain one or another test's (tests share a process), so zlib's counts depend on what ran before.
    expect(cooledByCompact).toBeGreaterThan(5);
    expect(reads.mock.calls.length + adopt.mock.results.filter((r) => r.value === true).length).toBeGreaterThan(0);
    reads.mockRestore();
    cool.mockRestore();
    adopt.mockRestore();
    const views = await Promise.all([sessionViewInSteps(plain), sessionViewInSteps(compacted)]);
    expect(JSON.stringify(views[1]).replaceAll('"compacted"', '"ID"')).toBe(JSON.stringify(views[0]).replaceAll('"plain"', '"ID"'));
    const finals = await Promise.all([bare.registry.end(plain, 'end'), bare.registry.end(compacted, 'end')]);
    expect(JSON.stringify(finals[1]).replaceAll('"compacted"', '"ID"')).toBe(JSON.stringify(finals[0]).replaceAll('"plain"', '"ID"'));
    // Ended: its scorer is released, nothing to compact.
    expect(compacted.compact()).toBe(false);
  });
});
