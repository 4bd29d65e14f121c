/** The ranking core (src/core/rank): bases, ties, mixed tasks, and the consensus of edit locations on real runs. */
import { describe, expect, it } from 'vitest';
import { consensusScores, jaccard, locationItems } from '../../src/core/rank/consensus.js';
import { patchClass } from '../../src/core/rank/patch-class.js';
import { groupTask, rankRuns, type RankInput } from '../../src/core/rank/rank.js';
import { labelSteps } from '../../src/core/state-builder.js';
import { defaultAnalyzers } from '../../src/syntax/index.js';
import { corpusRuns, statesOf } from '../fixtures/corpus-runs.js';

const PRIOR = { kind: 'prior' as const };
const PTA = { kind: 'pta' as const, version: 3, paths: 2 };
const run = (id: string, composite: number, extra: Partial<RankInput> = {}): RankInput => ({ id, task: 't', composite, reference: PRIOR, steps: 10, locations: [], ...extra });

describe('rankRuns', () => {
  it('says when the asked basis gives every run one value (basisFlat): the composite alone ordered them', () => {
    const rank = (runs: RankInput[], basis: 'consensus' | 'vote') => {
      const r = rankRuns(runs, { basis });
      if (!r.ok) throw new Error(r.error.message);
      return r.value;
    };
    const patch = (key: string | null) => ({ key, lines: key === null ? 0 : 1 });
    // Every vote 1 (no two patches alike), every vote 0 (no source changed): flat; 2, 2, 1: not.
    expect(rank([run('a', 40, { patch: patch('x') }), run('b', 60, { patch: patch('y') }), run('c', 50, { patch: patch('z') })], 'vote')).toMatchObject({
      basisFlat: true,
      runs: [{ id: 'b' }, { id: 'c' }, { id: 'a' }],
    });
    expect(rank([run('a', 40, { patch: patch(null) }), run('b', 60, { patch: patch(null) })], 'vote').basisFlat).toBe(true);
    expect(rank([run('a', 40, { patch: patch('x') }), run('b', 60, { patch: patch('y') }), run('c', 50, { patch: patch('x') })], 'vote').basisFlat).toBeUndefined();
    // Two runs share one Jaccard similarity whatever they edited; three with nothing in common all have 0.
    expect(rank([run('a', 40, { locations: ['f', 'g'] }), run('b', 60, { locations: ['f'] })], 'consensus').basisFlat).toBe(true);
    expect(rank([run('a', 40, { locations: ['f'] }), run('b', 60, { locations: ['g'] }), run('c', 50, { locations: ['h'] })], 'consensus').basisFlat).toBe(true);
    expect(rank([run('a', 40, { locations: ['f'] }), run('b', 60, { locations: ['f'] }), run('c', 50, { locations: ['h'] })], 'consensus').basisFlat).toBeUndefined();
    // One run, and the composite's own bases: nothing to say.
    expect(rank([run('a', 40, { locations: ['f'] })], 'consensus').basisFlat).toBeUndefined();
    const free = rankRuns([run('a', 40), run('b', 40)]);
    expect(free.ok && free.value.basisFlat).toBeUndefined();
  });

  it('takes consensus values equal up to rounding as equal in the order too: the composite decides between them', () => {
    // Footprints whose consensus values come out 0.39999999999999997 (r0) and 0.4 (r1): one sum in two orders.
    const footprints = [
      ['c', 'f', 'g'],
      ['c', 'e', 'f'],
      ['b', 'c', 'd', 'e', 'f'],
      ['b', 'c', 'd', 'f', 'g'],
      ['a', 'b', 'd', 'f'],
    ];
    const scores = consensusScores(footprints.map((f) => new Set(f)));
    expect(scores[0]).not.toBe(scores[1]);
    expect(Math.abs(scores[0]! - scores[1]!)).toBeLessThan(1e-15);
    const r = rankRuns(
      footprints.map((f, i) => run(`r${i}`, i === 0 ? 90 : i === 1 ? 10 : 50, { locations: f })),
      { consensus: true },
    );
    if (!r.ok) throw new Error(r.error.message);
    expect(r.value.runs.map((x) => [x.id, x.rank])).toEqual([
      ['r2', 1],
      ['r3', 1],
      ['r0', 3],
      ['r1', 4],
      ['r4', 5],
    ]);
  });

  it('orders by the composite reference-free without a forecast or a PTA, best first, ties sharing a rank', () => {
    const r = rankRuns([run('a', 40), run('b', 70), run('c', 40), run('d', 10)]);
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.value.by).toBe('reference-free');
    expect(r.value.task).toBe('t');
    expect(r.value.runs.map((x) => [x.id, x.rank, x.tied, x.index])).toEqual([
      ['b', 1, false, 1],
      ['a', 2, true, 0],
      ['c', 2, true, 2],
      ['d', 4, false, 3],
    ]);
  });

  it('takes pPass when every run has one, else the PTA composite when every run has a PTA, else mixed references are named', () => {
    const withP = rankRuns([run('a', 90, { pPass: 0.2 }), run('b', 10, { pPass: 0.7 })]);
    expect(withP.ok && withP.value.by === 'pPass' && withP.value.runs.map((x) => [x.id, x.score])).toEqual([
      ['b', 0.7],
      ['a', 0.2],
    ]);
    const someP = rankRuns([run('a', 90, { pPass: 0.2, reference: PTA }), run('b', 10, { reference: PTA })]);
    expect(someP.ok && someP.value.by).toBe('pta');
    expect(someP.ok && someP.value.runs[0]!.id).toBe('a');
    const mixed = rankRuns([run('a', 90, { reference: PTA }), run('b', 10)]);
    expect(mixed.ok && mixed.value.by).toBe('mixed');
  });

  it('refuses a group with a NaN or infinite score instead of ranking it (a NaN pPass once came out ranked 1, 2, 3)', () => {
    for (const bad of [Number.NaN, Number.POSITIVE_INFINITY]) {
      const r = rankRuns([run('a', 90, { pPass: bad }), run('b', 10, { pPass: 0.7 }), run('c', 50, { pPass: Number.NaN })]);
      expect(r.ok).toBe(false);
      if (!r.ok) {
        expect(r.error.code).toBe('bad_input');
        expect(r.error.message).toMatch(/^cannot rank by pPass: no finite score for a \(pPass (NaN|Infinity), composite 90\), c \(pPass NaN, composite 50\)$/);
      }
    }
    const composite = rankRuns([run('a', Number.NaN), run('b', 10)]);
    expect(!composite.ok && composite.error.message).toBe('cannot rank by reference-free: no finite score for a (score NaN, composite NaN)');
  });

  it('uses the consensus only when asked and only without a forecast and a PTA; ties broken by the composite', () => {
    const locs = [['f:a.py', 's:a.py::f'], ['f:a.py', 's:a.py::f'], ['f:b.py']];
    const group = [run('x', 80, { locations: locs[2]! }), run('y', 30, { locations: locs[0]! }), run('z', 50, { locations: locs[1]! })];
    const c = rankRuns(group, { consensus: true });
    expect(c.ok && c.value.by).toBe('consensus');
    expect(c.ok && c.value.runs.map((x) => [x.id, x.consensus, x.rank, x.tied])).toEqual([
      ['z', 0.5, 1, false],
      ['y', 0.5, 2, false],
      ['x', 0, 3, false],
    ]);
    const pta = rankRuns(
      group.map((g) => ({ ...g, reference: PTA })),
      { consensus: true },
    );
    expect(pta.ok && pta.value.by).toBe('pta');
  });

  it('refuses a group of several tasks, naming each with its runs, unless mixed tasks are asked for', () => {
    const group = [run('a', 1, { task: 'x' }), run('b', 2, { task: 'y' }), run('c', 3, { task: undefined })];
    const r = rankRuns(group, { mixedTasksHint: '--mixed-tasks' });
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.error).toEqual({ code: 'mixed_tasks', message: 'the runs are of 2 tasks: x (a); y (b); rank compares runs of one task (--mixed-tasks ranks them anyway)' });
    const anyway = rankRuns(group, { mixedTasks: true });
    expect(anyway.ok && anyway.value.task).toBe(null);
    expect(groupTask([{ id: 'a' }, { id: 'b', task: 'x' }])).toEqual({ ok: true, value: 'x' });
    expect(rankRuns([]).ok).toBe(false);
  });
});

describe('consensus of edit locations', () => {
  it('jaccard and the mean similarity to the other runs', () => {
    expect(jaccard(new Set(['a', 'b']), new Set(['b', 'c']))).toBeCloseTo(1 / 3);
    expect(jaccard(new Set(), new Set())).toBe(0);
    expect(consensusScores([new Set(['a']), new Set(['a']), new Set(['b'])])).toEqual([0.5, 0.5, 0]);
    expect(consensusScores([new Set(['a'])])).toEqual([0]);
  });

  it("reads from the states exactly the labeler's source edits, on every corpus run", () => {
    const analyzers = defaultAnalyzers();
    let edited = 0;
    for (const r of corpusRuns()) {
      const states = statesOf(r.steps);
      // From scratch: each step the labeler calls a source edit, with the scope its state resolved.
      const expected = new Set<string>();
      labelSteps(r.steps, analyzers).forEach(({ label }, i) => {
        if (!label.sourceEdit || label.file === undefined) return;
        expected.add(`f:${label.file}`);
        const scope = states[i]!.scope;
        if (scope !== undefined) expected.add(`s:${scope}`);
      });
      expect([...locationItems(states)].sort(), r.name).toEqual([...expected].sort());
      if (expected.size > 0) edited += 1;
    }
    expect(edited).toBeGreaterThan(30);
  });
});

describe('rankRuns, basis vote', () => {
  const patched = (id: string, composite: number, patch: string[] | undefined, extra: Partial<RankInput> = {}) => run(id, composite, { patch: patch && patchClass(patch), ...extra });

  it('orders by the vote on final patches where asked and there is no forecast or PTA, ties by the composite', () => {
    const runs = [patched('a', 90, ['f\0+x']), patched('b', 50, ['f\0+y']), patched('c', 60, ['f\0+y']), patched('d', 99, [])];
    const r = rankRuns(runs, { basis: 'vote' });
    if (!r.ok) throw new Error(r.error.message);
    expect(r.value.by).toBe('vote');
    expect(r.value.runs.map((x) => [x.id, x.vote, x.score])).toEqual([
      ['c', 2, 2],
      ['b', 2, 2],
      ['a', 1, 1],
      ['d', 0, 0],
    ]);
    // A forecast or a PTA still comes first.
    const withPta = rankRuns(
      runs.map((x) => ({ ...x, reference: PTA })),
      { basis: 'vote' },
    );
    expect(withPta.ok && withPta.value.by).toBe('pta');
  });

  it('refuses a run with no final patch (a live session) by name, and two bases asked at once', () => {
    expect(rankRuns([patched('a', 1, ['f\0+x']), patched('live', 2, undefined)], { basis: 'vote' })).toEqual({
      ok: false,
      error: {
        code: 'bad_input',
        message:
          'cannot rank by vote: no final patch is known for live (a session keeps no step text: end it with its patch (the end message\'s "patch", the git diff of its work), or give its trajectory)',
      },
    });
    expect(rankRuns([patched('a', 1, [])], { basis: 'vote', consensus: true })).toEqual({
      ok: false,
      error: { code: 'bad_message', message: 'consensus and basis vote were both asked: give one basis' },
    });
  });
});
