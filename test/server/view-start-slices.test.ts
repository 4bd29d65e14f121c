/**
 * Where a step view begins, the live session's report (its waste analysis over every step, and the rebuild of the
 * states it reads) is built a slice a turn too, and the rows read each state as they are built (no rebuild of every
 * state at once): docs/reliability.md T30. The view is the same bytes as the one built in one go, shows the session
 * as it was when it began whatever is scored, set or ended meanwhile, and keeps the report for the next view.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { STATES_PER_STEP } from '../../src/core/in-steps.js';
import type { Scorer } from '../../src/core/scorer-api.js';
import type { Step } from '../../src/core/types.js';
import type { TrajectoryView } from '../../src/protocol/view-bodies.js';
import { Connection } from '../../src/server/connection.js';
import { viewEvent, viewJson } from '../../src/server/live-view.js';
import { createMetrics } from '../../src/server/metrics.js';
import { resolveOptions } from '../../src/server/options.js';
import { SessionRegistry } from '../../src/server/session-registry.js';
import { sessionState, sessionView, sessionViewInSteps, VIEW_ROWS_PER_TURN } from '../../src/server/session-view.js';
import type { Session } from '../../src/server/session.js';
import { objectJsonChunks } from '../../src/store/pta-text.js';
import { ReferenceStore } from '../../src/store/reference-store.js';
import { defaultAnalyzers } from '../../src/syntax/index.js';
import { corpusRuns } from '../fixtures/corpus-runs.js';
import { loopTurnsDuring } from '../loop-turns.js';
import { recordingSocket } from './helpers.js';

let dir: string;
let registry: SessionRegistry;
let connections = 0;
beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'steplens-view-start-'));
  const store = await ReferenceStore.open({ dataDir: dir });
  registry = new SessionRegistry({ store, analyzers: defaultAnalyzers(), metrics: createMetrics(store), log: pino({ level: 'silent' }), options: resolveOptions({}), connections: new Map() });
});
afterAll(async () => {
  await registry.endAll();
  await rm(dir, { recursive: true, force: true });
});

/** Every corpus run's steps one after another: ~2,000 real steps of every format, past a few slices. */
const allSteps = (): Step[] => corpusRuns().flatMap((r) => r.steps);

async function session(id: string, steps: readonly Step[]): Promise<Session> {
  const started = await registry.start({ type: 'start', session: id, task: 'pylint-dev__astroid-1196' }, new Connection(++connections, recordingSocket(), 1 << 24));
  if (!started.ok) throw new Error(started.error.message);
  const s = started.value;
  steps.forEach((step, seq) => expect(s.step(seq, step).kind).toBe('accepted'));
  return s;
}

/**
 * The view as it was built in one go before T30 (session-view.ts at 95424f9), kept here as the reference: every state
 * rebuilt at once, the report made in one call (a fresh one, not the one the session keeps), the rows joined.
 */
function oneGoView(s: Session): TrajectoryView {
  const states = s.states();
  const texts = s.stepTexts();
  const report = s.final ?? (s as unknown as { live: Scorer }).live.report(s.passed);
  const steps: TrajectoryView['steps'] = [];
  for (const f of s.framesAfter(-1)) {
    const state = f.type === 'score' ? states[f.t] : undefined;
    if (f.type !== 'score' || state === undefined) continue;
    steps.push({
      t: state.t,
      seq: f.seq,
      stage: state.stage,
      kind: state.kind,
      tool: state.tool,
      text: texts[f.t] ?? '',
      ...(state.file !== undefined ? { file: state.file } : {}),
      failed: state.failed,
      score: f.score,
      reward: f.reward,
      tier: f.tier,
    });
  }
  return {
    session: s.id,
    tenant: s.tenant,
    task: s.task,
    format: s.format,
    ...(s.agent !== undefined ? { agent: s.agent } : {}),
    ...(s.model !== undefined ? { model: s.model } : {}),
    state: sessionState(s),
    steps,
    signals: [...s.signals],
    report: {
      score: report.score,
      tier: report.tier,
      ...(report.lucky !== undefined ? { lucky: report.lucky } : {}),
      waste: report.waste,
      signals: report.signals,
      steps: report.steps,
      stages: report.stages,
      reference: report.reference,
      unknown: report.unknown,
    },
    ...(s.final !== undefined ? { final: s.final } : {}),
  };
}

/** The view's JSON as another session's (the same steps under another id). */
const asSession = (view: TrajectoryView, id: string): string => JSON.stringify({ ...view, session: id });

describe("a step view's start in slices", () => {
  it('is the same bytes as built in one go, for real runs: live, with an outcome, and ended', async () => {
    const runs = corpusRuns();
    const cases = [runs[0]!.steps, runs[Math.floor(runs.length / 2)]!.steps, runs[runs.length - 1]!.steps, allSteps()];
    for (const [i, steps] of cases.entries()) {
      const s = await session(`bytes-${i}`, steps);
      const compare = async (what: string): Promise<void> => {
        const sliced = JSON.stringify(await sessionViewInSteps(s));
        const oneGo = oneGoView(s);
        expect(sliced, `${what} ${i}`).toBe(JSON.stringify(oneGo));
        expect(sliced, `${what} ${i}`).toBe(JSON.stringify(sessionView(s)));
        // Its JSON built a slice a turn too: GET /v1/sessions/:id/steps's answer and the live feed's first event.
        expect((await viewJson(s)).toString('utf8'), `${what} ${i}`).toBe(JSON.stringify(oneGo));
        expect((await viewEvent(s)).toString('utf8'), `${what} ${i}`).toBe(`data: ${JSON.stringify({ type: 'view', ...oneGo })}\n\n`);
      };
      await compare('live');
      // Passed with a low score is Lucky: the report classifies it (its states read again).
      registry.setOutcome(s, i % 2 === 0);
      await compare('outcome');
      await registry.end(s, 'end');
      expect(s.ended).toBe(true);
      await compare('ended');
    }
  });

  it.each([
    ['scored and the outcome set', undefined],
    ['scored, the outcome set, and the session ended', 12],
  ])('shows the session as it was when it began while steps are %s', async (what, endAt) => {
    const steps = allSteps();
    const n = steps.length - 200;
    const s = await session(`grows-${endAt}`, steps.slice(0, n));
    const twin = await session(`grows-twin-${endAt}`, steps.slice(0, n));
    let seq = n;
    let turnsWhileBuilt = 0;
    let spinning = true;
    let newer: unknown;
    // Each turn the view leaves, a step is scored (until the end); at turn 3 a fresh report, at 8 the outcome.
    const other = (): void => {
      if (!spinning) return;
      turnsWhileBuilt++;
      if (seq < steps.length) s.step(seq, steps[seq++]);
      if (turnsWhileBuilt === 3) newer = s.report();
      if (turnsWhileBuilt === 8) registry.setOutcome(s, true);
      // The report kept (a poll of the web view just made it): the end reuses it and is over within the turn (one
      // built afresh takes turns of its own, T34).
      if (turnsWhileBuilt === endAt) {
        s.report();
        void registry.end(s, 'end');
      }
      setImmediate(other);
    };
    setImmediate(other);
    const view = await sessionViewInSteps(s);
    spinning = false;
    // Built over more turns than the rows take: steps came in while the report and while the rows were built.
    expect(turnsWhileBuilt, what).toBeGreaterThan(8 + n / VIEW_ROWS_PER_TURN);
    expect(s.length).toBeGreaterThan(n + 8);
    expect(s.ended).toBe(endAt !== undefined);
    expect(view.steps).toHaveLength(n);
    expect(view.report.steps).toBe(n);
    expect(asSession(view, 'x')).toBe(asSession(sessionView(twin), 'x'));
    // The report asked for meanwhile was of the steps then.
    expect((newer as { steps: number }).steps).toBeGreaterThan(n);
  });

  it("keeps a live session's report only while it is the session's as it is now", async () => {
    const steps = allSteps();
    const s = await session('kept', steps.slice(0, 1000));
    const building = sessionViewInSteps(s);
    await new Promise((resolve) => setImmediate(resolve));
    s.step(1000, steps[1000]);
    const newer = s.report();
    await building;
    // Not replaced by the report of 1,000 steps the view made.
    expect(s.report()).toBe(newer);
    expect(newer.steps).toBe(1001);
  });

  it('yields to the event loop before the report is done: a first view takes more turns than one with the report kept', async () => {
    const steps = allSteps();
    const s = await session('turns', steps.slice(0, 3 * VIEW_ROWS_PER_TURN));
    const first = await loopTurnsDuring(() => sessionViewInSteps(s));
    const second = await loopTurnsDuring(() => sessionViewInSteps(s));
    expect(JSON.stringify(second.value)).toBe(JSON.stringify(first.value));
    // The second reads the kept report: its turns are the rows'.
    expect(second.turns).toBeLessThanOrEqual(3 + 1);
    // The first rebuilt the states and ran the detectors over them a slice a turn: at least two passes' slices.
    expect(first.turns).toBeGreaterThanOrEqual(second.turns + (2 * 3 * VIEW_ROWS_PER_TURN) / STATES_PER_STEP);
  });

  it("writes its JSON in pieces of about 64 Ki characters, the report's waste list too", async () => {
    // Shell steps whose waste list is long (a redundant read in every third step, as in bench/stall.ts's session).
    const kinds = [(i: number) => `ls ${i}`, (i: number) => `cat a${i % 50}.py`, (i: number) => `sed -n '${i},${i + 40}p' a.py`];
    const steps = Array.from({ length: 3000 }, (_, i) => ({ tool: 'bash', action: { kind: 'shell', command: kinds[i % 3]!(i) }, observation: 'x' }) as unknown as Step);
    const s = await session('pieces', steps);
    const view = await sessionViewInSteps(s);
    expect(JSON.stringify(view.report.waste).length).toBeGreaterThan(2 * 64 * 1024);
    const pieces: string[] = [];
    for await (const piece of objectJsonChunks(view)) pieces.push(piece);
    expect(pieces.join('')).toBe(JSON.stringify(view));
    expect(Math.max(...pieces.map((p) => p.length))).toBeLessThan(64 * 1024 + 1024);
  });
});
