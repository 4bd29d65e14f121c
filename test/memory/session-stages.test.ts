/**
 * A session's recent stages (the list row) are read from the scorer's state columns, which hold every step's stage
 * anyway, not from a ring of its own (bench/README.md "mem21": a small typed array's view, buffer and elements, ~0.2
 * KB a session). The row reads what the ring gave: the last 40 stages, live, compacted between steps, and ended.
 */
import { describe, expect, it } from 'vitest';
import { UNIFORM_PRIOR } from '../../src/core/prior.js';
import { createScorer } from '../../src/core/scorer.js';
import { StateColumns } from '../../src/core/state/state-columns.js';
import { RECENT } from '../../src/server/session.js';
import { defaultAnalyzers } from '../../src/syntax/index.js';
import { corpusRuns } from '../fixtures/corpus-runs.js';
import { priorSession } from './prior-session.js';

const analyzers = defaultAnalyzers();

describe('session stages', () => {
  it('a session keeps no typed array of its own', () => {
    const session = priorSession();
    const own = Object.entries(session).filter(([, v]) => ArrayBuffer.isView(v));
    expect(own.map(([k]) => k)).toEqual([]);
  });

  it('the recent stages are the last 40 states’ stages, live, compacted between steps, and once ended', () => {
    const run = corpusRuns().reduce((a, b) => (b.steps.length > a.steps.length ? b : a));
    expect(run.steps.length).toBeGreaterThan(RECENT);
    for (const every of [0, 5]) {
      const session = priorSession();
      expect(session.recentStages).toBe('');
      const stages: string[] = [];
      run.steps.forEach((step, seq) => {
        const out = session.step(seq, JSON.parse(JSON.stringify(step)));
        if (out.kind !== 'accepted') throw new Error(out.kind);
        for (const r of out.results) stages.push(r.state.stage);
        if (every > 0 && seq % every === 2) expect(session.compact()).toBe(true);
        expect(session.recentStages).toBe(stages.slice(-RECENT).join(''));
      });
      session.release();
      expect(session.recentStages).toBe(stages.slice(-RECENT).join(''));
      expect(session.states().map((s) => s.stage)).toEqual(stages);
    }
  });

  it("the columns' stage of a state is the rebuilt state's, and undefined past the end", () => {
    const scorer = createScorer({ reference: { kind: 'prior', prior: UNIFORM_PRIOR }, analyzers });
    const columns = new StateColumns();
    for (const run of corpusRuns().slice(0, 8)) for (const step of run.steps) columns.push(scorer.push(step).state);
    expect(columns.length).toBeGreaterThan(100);
    for (let i = 0; i < columns.length; i++) expect(columns.stageAt(i)).toBe(columns.at(i)!.stage);
    expect(columns.stageAt(columns.length)).toBeUndefined();
    expect(columns.stageAt(-1)).toBeUndefined();
    expect(columns.stageAt(0.5)).toBeUndefined();
  });
});
