/**
 * bench/pta-candidates.ts: the simplex grids, the grid rule's choice (worst margin over each training group's
 * best single Φ, constraints, shrinkage), the within-task concordance and the logistic rule. Rows are small
 * synthetic signal tables (no trajectory is involved).
 */
import { describe, expect, it } from 'vitest';
import { gridRule, logisticRule, simplex, withinTask, type Row } from '../../bench/pta-candidates.js';

const row = (passed: boolean, struct: number, temp: number, task = 't', source = 's'): Row => ({ source, task, passed, x: [struct, 0, 0, temp, 0], z: struct - temp, steps: 10 });
/** Passing runs are high on Φstruct or on Φtemp, never both; failing runs middling on both: only the mix separates. */
const mixGroup = (source: string): Row[] => [row(true, 1, 0, 'a', source), row(true, 0, 1, 'b', source), row(false, 0.4, 0.4, 'a', source), row(false, 0.45, 0.45, 'b', source)];

describe('PTA-mode choice rules (bench/pta-candidates.ts)', () => {
  it('simplex grids: every point sums to 1, the counts of a 4-simplex', () => {
    expect(simplex([0, 1, 2, 3], 0.05)).toHaveLength(1771);
    expect(simplex([0, 3], 0.5)).toEqual([
      [0, 0, 0, 1, 0],
      [0.5, 0, 0, 0.5, 0],
      [1, 0, 0, 0, 0],
    ]);
    for (const w of simplex([0, 1, 2, 3, 4], 0.1)) expect(w.reduce((a, b) => a + b, 0)).toBeCloseTo(1, 12);
  });

  it('the grid rule picks the mix that beats every single signal on every training group, and obeys a constraint', () => {
    const train = [mixGroup('g1'), mixGroup('g2')];
    const chosen = gridRule({ dims: [0, 3], step: 0.5 })(train);
    expect(chosen.text).toBe('struct 0.5, temp 0.5');
    const held = mixGroup('h');
    for (const p of held.filter((r) => r.passed)) for (const f of held.filter((r) => !r.passed)) expect(chosen.score(p)).toBeGreaterThan(chosen.score(f));
    expect(gridRule({ dims: [0, 3], step: 0.5, constraint: (w) => w[0] === 1 })(train).text).toBe('struct 1');
    // Shrinking hard toward Φtemp alone wins over the margin.
    expect(gridRule({ dims: [0, 3], step: 0.5, shrink: { lambda: 10, anchor: [0, 0, 0, 1, 0] } })(train).text).toBe('temp 1');
  });

  it('within-task concordance counts only pass/fail pairs of one source and task, ties ½', () => {
    const rows = [row(true, 1, 0, 'a'), row(false, 0, 0, 'a'), row(false, 1, 0, 'a'), row(false, 5, 0, 'b'), row(true, 9, 0, 'a', 'other source')];
    expect(withinTask(rows, (r) => r.x[0]!)).toBeCloseTo(0.75, 12);
    expect(withinTask([row(true, 1, 0, 'a'), row(false, 0, 0, 'b')], (r) => r.x[0]!)).toBeNull();
  });

  it('the logistic rule learns the direction of the column that separates, across sources with different pass rates', () => {
    const train = [
      [row(true, 0.9, 0, 'a', 's1'), row(true, 0.7, 0, 'b', 's1'), row(true, 0.6, 0, 'c', 's1'), row(false, 0.5, 0, 'd', 's1')],
      [row(true, 0.5, 0, 'a', 's2'), row(false, 0.3, 0, 'b', 's2'), row(false, 0.2, 0, 'c', 's2'), row(false, 0.1, 0, 'd', 's2')],
    ];
    const chosen = logisticRule(['struct'], (r) => [r.x[0]!])(train);
    expect(chosen.score(row(true, 0.8, 0))).toBeGreaterThan(chosen.score(row(false, 0.2, 0)));
    expect(chosen.text).toMatch(/^struct \d/);
  });
});
