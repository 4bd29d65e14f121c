/**
 * What the web view shows of a session or an uploaded trajectory: a list row
 * (cheap: read on every feed connect for every session) and the per-step view
 * (every score frame joined with its state and step line).
 */
import { passTierFor } from '../core/composite.js';
import type { ScoringConfig } from '../core/config.js';
import type { StepResult, TrajectoryReport } from '../core/scorer-api.js';
import type { State, Step } from '../core/types.js';
import type { ScoreMessage } from '../protocol/server-messages.js';
import type { SessionSummary, TrajectoryView, ViewStep } from '../protocol/view-bodies.js';
import type { Session } from './session.js';
import { stepText } from './step-text.js';
import { setImmediate as nextTurn } from 'node:timers/promises';

export function sessionState(s: Session): SessionSummary['state'] {
  return s.ended ? 'ended' : s.connection === undefined ? 'detached' : 'open';
}

/** What names a session in its list row and on its page. */
function sessionHead(s: Session): Pick<SessionSummary, 'session' | 'tenant' | 'task' | 'format' | 'agent' | 'model' | 'state'> {
  return {
    session: s.id,
    tenant: s.tenant,
    task: s.task,
    format: s.format,
    ...(s.agent !== undefined ? { agent: s.agent } : {}),
    ...(s.model !== undefined ? { model: s.model } : {}),
    state: sessionState(s),
  };
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
  const view = viewParts(s);
  for (const step of view.rows) view.steps.push(step);
  return view.done();
}

/** Rows built between two turns of the event loop by {@link sessionViewInSteps}. */
export const VIEW_ROWS_PER_TURN = 500;

/**
 * {@link sessionView} built {@link VIEW_ROWS_PER_TURN} rows a turn: a 5,000-step session's rows took ~30 ms in one
 * go. It shows the steps, signals and report as they were when it began (steps scored meanwhile wait for the next view).
 */
export async function sessionViewInSteps(s: Session): Promise<TrajectoryView> {
  const view = viewParts(s);
  let n = 0;
  for (const step of view.rows) {
    view.steps.push(step);
    if (++n % VIEW_ROWS_PER_TURN === 0) await nextTurn();
  }
  return view.done();
}

/** What a view is made of, read when it begins: its rows (to build), and the view once they are. */
function viewParts(s: Session): { steps: ViewStep[]; rows: Generator<ViewStep>; done: () => TrajectoryView } {
  const states = s.states();
  const texts = s.stepTexts();
  const signals = [...s.signals];
  const report: TrajectoryReport = s.final ?? s.report();
  const head = sessionHead(s);
  const final = s.final;
  const steps: ViewStep[] = [];
  function* rows(): Generator<ViewStep> {
    for (const f of s.framesAfter(-1)) {
      if (f.type !== 'score') continue;
      const state = states[f.t];
      // None past the states read at the start (scored after the view began).
      if (state !== undefined) yield viewStep(state, texts[f.t] ?? '', f, f.seq);
    }
  }
  const done = (): TrajectoryView => ({
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
  });
  return { steps, rows: rows(), done };
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
