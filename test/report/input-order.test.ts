/**
 * The same runs named in two orders give the same report. A failing run of a task with 3 passing runs meets one of
 * the task's leave-one-out PTAs in turn, and the turns (and each PTA's insertion order) followed the order of the
 * PATH arguments: the failing jackson-databind-3701 runs scored 62.7 / 53.9 in one order and 63.9 / 48.2 in the other.
 * Runs are now taken in path order (core/run-order.ts), which is the order a walk of one folder already had.
 */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { CORPUS_DIR } from '../fixtures/corpus.js';
import { corpusReport } from './corpus-fixture.js';

/** 5 SWE-agent 0.x run folders on 3 Java tasks; jackson-databind-3701 and -4486 have 3 passing runs and failing ones. */
const VERIFIED = path.join(CORPUS_DIR, 'multi-swe-bench__experiments', 'evaluation', 'java', 'verified');
const FOLDERS = ['deepseek-chat-v2', 'deepseek-coder-v2', 'doubao-pro-128k', 'gpt-4o-2024-05-13', 'gpt-4o-mini-2024-07-18'].map((m) => path.join(VERIFIED, `20240825_SWE-agent_${m}`));

describe('report does not depend on the order of its PATH arguments', () => {
  it('gives the same scores, tables and statistics for the run folders in two orders', () => {
    const forward = corpusReport(FOLDERS);
    const reversed = corpusReport([...FOLDERS].reverse());
    const failing = forward.trajectories.filter((t) => t.reference?.kind === 'in-folder' && t.outcome === 'fail');
    expect(failing.length).toBeGreaterThanOrEqual(2);
    // The folders in walk order are what `report` over their parent scores: today's numbers.
    const parent = corpusReport([VERIFIED]);
    const score = (r: typeof forward) => Object.fromEntries(r.trajectories.map((t) => [t.id, t.score?.total]));
    expect(score(forward)).toEqual(score(parent));
    expect(score(reversed)).toEqual(score(forward));
    const { inputs: a, ...restForward } = forward;
    const { inputs: b, ...restReversed } = reversed;
    expect(restReversed).toEqual(restForward);
    expect({ ...b, paths: a.paths }).toEqual(a);
  }, 120_000);
});
