/** The long trajectory of real-shaped steps with probe windows (bench/long-trajectory.ts) and the steps that cool its probe. */
import { describe, expect, it } from 'vitest';
import type { CorpusTrajectory } from '../../bench/corpus.js';
import { coolingSteps, longTrajectory } from '../../bench/long-trajectory.js';
import type { Step } from '../../src/core/types.js';

const step = (command: string): Step => ({ t: 0, tool: 'bash', action: { kind: 'shell', command } });
const corpus = [{ steps: Array.from({ length: 50 }, (_, i) => step(`echo filler ${i}`)) }] as unknown as CorpusTrajectory[];
const probe = Array.from({ length: 4 }, (_, i) => step(`cat probe_${i}.py`));

/** Per window, how many steps of the process (the previous run, the cooling, this run) since the probe's first step last came. */
function gapsBeforeWindows(run: readonly Step[], cooling: readonly Step[], at: readonly number[]): number[] {
  const seq = [...run, ...cooling, ...run];
  const first = probe[0]!.action;
  return at.map((a) => {
    const i = run.length + cooling.length + a;
    let j = i - 1;
    while (seq[j]!.action !== first) j--;
    return i - j;
  });
}

describe('coolingSteps', () => {
  it('puts as many steps before the first window, counted from the previous run, as between the windows', () => {
    const at = [2, 30];
    const run = longTrajectory(corpus, 34, probe, at);
    const cooling = coolingSteps(run, probe.length, at);
    expect(cooling).toEqual(run.slice(6, 30));
    expect(cooling.every((s) => !probe.some((p) => p.action === s.action))).toBe(true);
    const [g10, g2000] = gapsBeforeWindows(run, cooling, at);
    expect(g2000).toBe(28);
    // Within the steps before the first window (2): without cooling it was 6 steps.
    expect(g10! - g2000!).toBe(at[0]);
    expect(gapsBeforeWindows(run, [], at)[0]).toBe(6);
  });

  it('needs two windows that do not overlap', () => {
    const run = longTrajectory(corpus, 34, probe, [2, 30]);
    expect(() => coolingSteps(run, probe.length, [2])).toThrow(/two probe windows/);
    expect(() => coolingSteps(run, probe.length, [2, 4])).toThrow(/two probe windows/);
    expect(coolingSteps(run, probe.length, [30, 2])).toHaveLength(24);
  });
});
