/**
 * A session whose workspace deflates the texts of files unused for COLD_STEPS steps (on the step path, bench/README.md
 * "Memory per session, seventh pass") sends the frames, states, step lines, report, web view and final that a session
 * whose workspace never deflates sends, over real runs whose first files go cold.
 */
import { describe, expect, it } from 'vitest';
import type { Session } from '../../src/server/session.js';
import { sessionViewInSteps } from '../../src/server/session-view.js';
import { ASTROID, readSteps } from './helpers.js';
import { seen, useBareRegistry } from './bare-registry.js';
import { countingZlib } from '../memory/zlib-calls.js';

const bare = useBareRegistry('steplens-cold-');
const started = (id: string): Promise<Session> => bare.started(id);

describe('a session keeping the texts of files unused for a while deflated', () => {
  it('sends the frames, states, step lines, report, view and final of a session that never deflates', async () => {
    // Three runs of one task in one session: the files of the first ones go cold during the later ones.
    const steps = [...(await readSteps(ASTROID.passA)), ...(await readSteps(ASTROID.passB)), ...(await readSteps(ASTROID.fail))];
    const checked = (seq: number): boolean => seq % 10 === 9 || seq === steps.length - 1;
    // The plain session first, whole: the sessions share their long texts, so the cold one, stepping beside it, would
    // deflate texts the plain one then reads.
    const plain = await started('plain');
    const sent = { plain: [] as unknown[], cold: [] as unknown[] };
    const counts = { plain: { deflates: 0, inflates: 0 }, cold: { deflates: 0, inflates: 0 } };
    const expected: string[] = [];
    for (const [seq, step] of steps.entries()) {
      sent.plain.push(countingZlib(counts.plain, () => plain.step(seq, structuredClone(step)), true));
      if (checked(seq)) expected.push(seen(plain, sent.plain));
    }
    const cold = await started('cold');
    for (const [seq, step] of steps.entries()) {
      sent.cold.push(countingZlib(counts.cold, () => cold.step(seq, structuredClone(step))));
      if (checked(seq)) expect(seen(cold, sent.cold)).toBe(expected.shift());
    }
    // The cold session's texts were deflated on the step path and read back deflated by later steps (texts another
    // test's session deflated may be shared into the plain one: tests share a process, so its zlib calls are not checked).
    // Deflated here, or by another test's session: a text already deflated (shared) is not deflated again.
    // Run alone: 1 deflate (a text of 2,048+ characters unused for 16 steps) and 1 inflate (read again later).
    expect(counts.cold.inflates).toBeGreaterThan(0);
    const views = await Promise.all([sessionViewInSteps(plain), sessionViewInSteps(cold)]);
    expect(JSON.stringify(views[1]).replaceAll('"cold"', '"ID"')).toBe(JSON.stringify(views[0]).replaceAll('"plain"', '"ID"'));
    const finals = await Promise.all([bare.registry.end(plain, 'end'), bare.registry.end(cold, 'end')]);
    expect(JSON.stringify(finals[1]).replaceAll('"cold"', '"ID"')).toBe(JSON.stringify(finals[0]).replaceAll('"plain"', '"ID"'));
  });
});
