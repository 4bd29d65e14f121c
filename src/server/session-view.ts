/**
 * What the web view shows of a session or an uploaded trajectory: a list row
 * (cheap: read on every feed connect for every session) and the per-step view
 * (every score frame joined with its state and step line).
 */
import { passTierFor } from '../core/composite.js';
import type { ScoringConfig } from '../core/config.js';
import type { StepResult, TrajectoryReport } from '../core/scorer-api.js';
import { runToEnd } from '../core/in-steps.js';
import type { Signal, State, Step } from '../core/types.js';
import type { FinalMessage, ScoreMessage } from '../protocol/server-messages.js';
import type { SessionSummary, TrajectoryView, ViewStep } from '../protocol/view-bodies.js';
import type { Session } from './session.js';
import { runInTurns } from './in-turns.js';
import { stepText } from './step-text.js';

export function sessionState(s: Session): SessionSummary['state'] {
  return s.ended ? 'ended' : s.connection === undefined ? 'detached' : 'open';
}

/** What names a session: its list row's and page's first fields, and GET /v1/sessions/:id's (http-routes.ts). */
export function sessionNames(s: Session): Pick<SessionSummary, 'session' | 'tenant' | 'task' | 'format' | 'agent' | 'model'> {
  return {
    session: s.id,
    tenant: s.tenant,
    task: s.task,
    format: s.format,
    ...(s.agent !== undefined ? { agent: s.agent } : {}),
    ...(s.model !== undefined ? { model: s.model } : {}),
  };
}

/** What names a session in its list row and on its page. */
function sessionHead(s: Session): Pick<SessionSummary, 'session' | 'tenant' | 'task' | 'format' | 'agent' | 'model' | 'state'> {
  return { ...sessionNames(s), state: sessionState(s) };
}

/** A session's list row; O(1) in its length. */
export function sessionSummary(s: Session, config: ScoringConfig): SessionSummary {
  const total = s.final?.score.total ?? s.latestTotal ?? 0;
  const last = s.signals[s.signals.length - 1];
  return {
    ...sessionHead(s),
    steps: s.length,
    total,
    tier: s.final?.tier ?? passTierFor(total, config.tiers),
    recentStages: s.recentStages,
    ...(last !== undefined ? { lastSignal: { kind: last.kind, severity: last.severity, t: last.t, message: last.message } } : {}),
    reference: s.reference,
    startedAt: s.startedAt,
    ...(s.endedAt !== undefined ? { endedAt: s.endedAt } : {}),
    ...(s.passed !== undefined ? { passed: s.passed } : {}),
  };
}

function viewStep(state: State, text: string, f: Pick<ScoreMessage, 'score' | 'reward' | 'tier'>, seq?: number): ViewStep {
  return {
    t: state.t,
    ...(seq !== undefined ? { seq } : {}),
    stage: state.stage,
    kind: state.kind,
    tool: state.tool,
    text,
    ...(state.file !== undefined ? { file: state.file } : {}),
    failed: state.failed,
    score: f.score,
    reward: f.reward,
    tier: f.tier,
  };
}

/** Every step of a session so far, with its signals and report (the final one once ended). */
export function sessionView(s: Session): TrajectoryView {
  return runToEnd(viewInSteps(s));
}

/** Rows built between two turns of the event loop by {@link sessionViewInSteps}. */
export const VIEW_ROWS_PER_TURN = 500;

/**
 * {@link sessionView} built in slices, a turn of the event loop each: the report (its waste analysis and the rebuild
 * of the states it reads, a few hundred states a slice: 60-124 ms cold at load 5 in one go for 5,000 steps), then
 * {@link VIEW_ROWS_PER_TURN} rows a slice (~30 ms in one go). It shows the steps, signals and report as they were
 * when it was called (it reads the session before its first await; steps scored meanwhile wait for the next view).
 */
export function sessionViewInSteps(s: Session): Promise<TrajectoryView> {
  return runInTurns(viewInSteps(s));
}

/** The view of `s` as it is now, in steps: the session is read when this is called, the work done by `next()`. */
function viewInSteps(s: Session): Generator<void, TrajectoryView> {
  const read: ViewRead = {
    count: s.length,
    texts: s.stepTexts(),
    signals: [...s.signals],
    head: sessionHead(s),
    final: s.final,
    report: s.final === undefined ? s.reportInSteps() : undefined,
  };
  return build(s, read);
}

/** What a view reads of its session when it begins (`texts` only grows: the first `count` never change). */
interface ViewRead {
  count: number;
  texts: readonly string[];
  signals: Signal[];
  head: ReturnType<typeof sessionHead>;
  final: FinalMessage | undefined;
  /** The live session's report as of then, in steps (the final's once ended). */
  report: Generator<void, TrajectoryReport> | undefined;
}

function* build(s: Session, { count, texts, signals, head, final, report: reportSteps }: ViewRead): Generator<void, TrajectoryView> {
  const report: TrajectoryReport = final ?? (yield* reportSteps!); // one of the two is set (viewInSteps)
  const steps: ViewStep[] = [];
  for (const f of s.framesAfter(-1)) {
    // None scored after the view began; each state rebuilt when its row is (the states are append-only).
    if (f.type !== 'score' || f.t >= count) continue;
    const state = s.state(f.t);
    if (state === undefined) continue;
    steps.push(viewStep(state, texts[f.t] ?? '', f, f.seq));
    if (steps.length % VIEW_ROWS_PER_TURN === 0) yield;
  }
  return {
    ...head,
    steps,
    signals,
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
    ...(final !== undefined ? { final } : {}),
  };
}

/** The same view of a whole trajectory scored in one go (an upload). */
export function trajectoryView(
  meta: { task: string; format: string; agent?: string; model?: string },
  steps: readonly Step[],
  results: readonly StepResult[],
  report: TrajectoryReport,
): TrajectoryView {
  return {
    task: meta.task,
    format: meta.format,
    ...(meta.agent !== undefined ? { agent: meta.agent } : {}),
    ...(meta.model !== undefined ? { model: meta.model } : {}),
    steps: results.map((r, i) => viewStep(r.state, stepText(steps[i]!), r)),
    signals: results.flatMap((r) => r.signals),
    report,
  };
}
