/**
 * Leave-one-task-out AUROCs counted once over all runs (src/core/calibrate/loto-auroc.ts) are exactly, bit for bit,
 * the AUROC `auroc` gives for the runs of the other tasks: tied scores, tasks of one outcome, tasks with no run,
 * a task whose removal leaves no positive.
 */
import { describe, expect, it } from 'vitest';
import { aurocsWithoutEachTask } from '../../src/core/calibrate/loto-auroc.js';
import { auroc } from '../../src/core/stats/auroc.js';

function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

describe('aurocsWithoutEachTask', () => {
  it('equals auroc of the other tasks for every task, on 200 random sets with ties', () => {
    const r = rng(3);
    for (let set = 0; set < 200; set++) {
      const tasks = 1 + Math.floor(r() * 12);
      const levels = 1 + Math.floor(r() * 6);
      const x: number[] = [];
      const passed: boolean[] = [];
      const taskOf: number[] = [];
      const n = Math.floor(r() * 40);
      for (let i = 0; i < n; i++) {
        x.push(Math.floor(r() * levels) / levels);
        passed.push(r() < 0.4);
        taskOf.push(Math.floor(r() * tasks));
      }
      // The last task holds every positive in some sets: left out, no positive remains.
      if (set % 10 === 0) passed.forEach((p, i) => p && (taskOf[i] = tasks - 1));
      const byTask = Array.from({ length: tasks }, (_, t) => taskOf.flatMap((o, i) => (o === t ? [i] : [])));
      const got = aurocsWithoutEachTask({ x: Float64Array.from(x), passed, byTask });
      for (let t = 0; t < tasks; t++) {
        const keep = x.map((_, i) => i).filter((i) => taskOf[i] !== t);
        const want = auroc(
          keep.filter((i) => passed[i]).map((i) => x[i]!),
          keep.filter((i) => !passed[i]).map((i) => x[i]!),
        );
        if (want === null) expect(got[t], `set ${set} task ${t}`).toBeNaN();
        else expect(Object.is(got[t], want.auroc), `set ${set} task ${t}: ${got[t]} vs ${want.auroc}`).toBe(true);
      }
    }
  });
});
