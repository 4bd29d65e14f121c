/**
 * T71: the consensus of a group in steps (`consensusInSteps`): the server's `POST /v1/rank` of 64 runs of 10,000 edit
 * locations merged 2,016 pairs in one turn (250-630 ms); in steps it gives back the loop between slices of work, and
 * gives the same scores as in one go. `rankRuns` takes the scores so computed (`agreement`) where its basis is the
 * consensus, and `consensusFootprints` says when that is.
 */
import { describe, expect, it } from 'vitest';
import { CONSENSUS_WORK_PER_STEP, consensusInSteps, consensusScores, jaccard } from '../../src/core/rank/consensus.js';
import { consensusFootprints, rankRuns, type RankInput } from '../../src/core/rank/rank.js';

const PRIOR = { kind: 'prior' as const };
const run = (id: string, locations: string[], extra: Partial<RankInput> = {}): RankInput => ({ id, task: 't', composite: 50, reference: PRIOR, steps: 10, locations, ...extra });

/** `n` footprints of `size` locations, each run's shifted by `shift` from the previous one. */
function group(n: number, size: number, shift: number): Array<Set<string>> {
  return Array.from({ length: n }, (_, r) => new Set(Array.from({ length: size }, (_, i) => `s:f${i + r * shift}.py::g`)));
}

describe('the consensus in steps', () => {
  it('yields between slices of a big group and gives the mean Jaccard similarity, as in one go', () => {
    const footprints = group(16, 20_000, 500);
    const steps = consensusInSteps(footprints);
    let yields = 0;
    let r = steps.next();
    for (; r.done !== true; r = steps.next()) yields++;
    // 120 pairs of ~40,000 ids merged: at least a step per CONSENSUS_WORK_PER_STEP of them.
    expect(yields).toBeGreaterThanOrEqual(Math.floor((120 * 40_000) / CONSENSUS_WORK_PER_STEP));
    expect(r.value).toEqual(consensusScores(footprints));
    const mean = (i: number): number => footprints.reduce((s, f, j) => (j === i ? s : s + jaccard(footprints[i]!, f)), 0) / 15;
    for (const i of [0, 7, 15]) expect(r.value[i]).toBeCloseTo(mean(i), 12);
  });

  it('a small group takes one step', () => {
    const steps = consensusInSteps(group(4, 10, 2));
    expect(steps.next().done).toBe(true);
  });

  it('rankRuns orders by the scores it is given, computed for consensusFootprints', () => {
    const runs = [run('a', ['f:x', 'f:y']), run('b', ['f:x']), run('c', ['f:z']), run('empty', [], { steps: 0 })];
    const footprints = consensusFootprints(runs, { basis: 'consensus' });
    // The runs with a step, in order; none when the basis will not be the consensus.
    expect(footprints?.map((f) => [...f])).toEqual([['f:x', 'f:y'], ['f:x'], ['f:z']]);
    expect(consensusFootprints(runs, {})).toBeUndefined();
    expect(
      consensusFootprints(
        runs.map((r) => ({ ...r, pPass: 0.5 })),
        { basis: 'consensus' },
      ),
    ).toBeUndefined();
    const given = rankRuns(runs, { basis: 'consensus', agreement: [0.1, 0.3, 0.2] });
    if (!given.ok) throw new Error(given.error.message);
    expect(given.value.runs.map((x) => [x.id, x.consensus])).toEqual([
      ['b', 0.3],
      ['c', 0.2],
      ['a', 0.1],
    ]);
    const computed = rankRuns(runs, { basis: 'consensus' });
    if (!computed.ok) throw new Error(computed.error.message);
    expect(computed.value.runs.map((x) => x.consensus)).toEqual(consensusScores(footprints!).sort((x, y) => y - x));
  });
});
