/**
 * The in-folder reference rule of report, calibrate and train (core/calibrate/references.ts): a passing run meets
 * a PTA of the OTHER passing runs of its task; a failing run meets a reference of the same size (one of those
 * PTAs, taken in turn), unless the older rule (`all`: the PTA of all passing runs) is asked for.
 */
import { describe, expect, it } from 'vitest';
import { leaveOneOutPtas, type ReferenceCandidate } from '../../src/core/calibrate/references.js';
import { compareRunKeys } from '../../src/core/run-order.js';
import type { Pta } from '../../src/core/scorer-api.js';
import { makeState } from '../equivalence/state-factory.js';

/** A run of `task` whose states carry `mark` as their tool, so a PTA's references can be told apart by their tools. */
const run = (task: string, passed: boolean, mark: string): ReferenceCandidate => ({
  key: `${task}/${mark}`,
  task,
  passed,
  states: passed ? [makeState({ t: 0, tool: mark }), makeState({ t: 1, tool: mark })] : [],
});
const marks = (pta: Pta | undefined): string[] => (pta === undefined ? [] : [...new Set(pta.nodes.flatMap((n) => (n.state === null ? [] : [n.state.tool])))].sort());

describe('leave-one-out references', () => {
  const runs = [
    run('a', true, 'p1'),
    run('a', false, 'f1'),
    run('a', true, 'p2'),
    run('a', true, 'p3'),
    run('a', false, 'f2'),
    run('a', false, 'f3'),
    run('a', false, 'f4'),
    run('b', true, 'q1'),
    run('b', false, 'g1'),
  ];

  it('matched (default): every run of a task meets n − 1 references, never its own; failing runs take the n PTAs in turn', () => {
    const ptas = leaveOneOutPtas(runs, 2);
    expect(ptas.slice(0, 7).map((p) => p?.references.length)).toEqual([2, 2, 2, 2, 2, 2, 2]);
    expect(marks(ptas[0])).toEqual(['p2', 'p3']);
    expect(marks(ptas[2])).toEqual(['p1', 'p3']);
    expect(marks(ptas[3])).toEqual(['p1', 'p2']);
    // Failing runs f1..f4 in order: without p1, without p2, without p3, then without p1 again.
    expect([ptas[1], ptas[4], ptas[5], ptas[6]].map(marks)).toEqual([
      ['p2', 'p3'],
      ['p1', 'p3'],
      ['p1', 'p2'],
      ['p2', 'p3'],
    ]);
    // Task b: 1 passing run, no PTA of 2 references for anyone.
    expect(ptas.slice(7)).toEqual([undefined, undefined]);
  });

  it('all: a failing run meets the PTA of every passing run (the older rule)', () => {
    const ptas = leaveOneOutPtas(runs, 2, 'all');
    expect([ptas[1], ptas[4], ptas[5], ptas[6]].map((p) => p?.references.length)).toEqual([3, 3, 3, 3]);
    expect(marks(ptas[1])).toEqual(['p1', 'p2', 'p3']);
    expect(marks(ptas[0])).toEqual(['p2', 'p3']);
  });

  it('a task with exactly minReferences passing runs has no reference for anyone under matched', () => {
    const two = [run('c', true, 'p1'), run('c', true, 'p2'), run('c', false, 'f1')];
    expect(leaveOneOutPtas(two, 2)).toEqual([undefined, undefined, undefined]);
    expect(leaveOneOutPtas(two, 2, 'all').map((p) => p?.references.length)).toEqual([undefined, undefined, 2]);
  });
});

describe('leave-one-out references do not depend on the order of the runs', () => {
  const runs = [run('a', true, 'p1'), run('a', false, 'f1'), run('a', true, 'p2'), run('a', true, 'p3'), run('a', false, 'f2'), run('a', false, 'f3'), run('a', false, 'f4')];
  /** Per run key, its whole PTA (nodes in insertion order, references, windows). */
  const byKey = (rs: readonly ReferenceCandidate[]) => {
    const ptas = leaveOneOutPtas(rs, 2);
    return Object.fromEntries(rs.map((r, i) => [r.key, JSON.stringify(ptas[i] ?? null)]));
  };

  it('takes the runs of a task by key before dealing the turns and building the PTAs', () => {
    const reversed = [...runs].reverse();
    const shuffled = [runs[4]!, runs[2]!, runs[6]!, runs[0]!, runs[5]!, runs[3]!, runs[1]!];
    expect(byKey(reversed)).toEqual(byKey(runs));
    expect(byKey(shuffled)).toEqual(byKey(runs));
    // In key order the failing runs take the PTAs without p1, p2, p3, then without p1 again, whatever order they came in.
    const ptas = leaveOneOutPtas(reversed, 2);
    expect(['a/f1', 'a/f2', 'a/f3', 'a/f4'].map((k) => marks(ptas[reversed.findIndex((r) => r.key === k)]))).toEqual([
      ['p2', 'p3'],
      ['p1', 'p3'],
      ['p1', 'p2'],
      ['p2', 'p3'],
    ]);
  });
});

describe('compareRunKeys', () => {
  it('orders paths as a walk of their folder lists them: segment by segment, not as whole strings', () => {
    // As strings 'a-c/x' < 'a/b' ('-' < '/'); a walk lists folder a before a-c.
    expect(['/r/a-c/x.traj', '/r/a/b.traj', '/r/a/a.traj', '/r/B/z.traj'].sort(compareRunKeys)).toEqual(['/r/B/z.traj', '/r/a/a.traj', '/r/a/b.traj', '/r/a-c/x.traj']);
    expect(compareRunKeys('/r/a/b', '/r/a/b')).toBe(0);
  });
});
