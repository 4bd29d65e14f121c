/**
 * The incremental scorer (method.md sections 5-8): one state builder, the
 * coherence, temporal and (with a PTA) structural trackers, the composite,
 * the step reward and the early-stop detectors, fed one step at a time.
 * `scoreSteps` is the same code folded over a whole trajectory, so online and
 * batch scores of every prefix are identical to the last bit.
 */
import { composite, tierFor, type PriorSignals } from './composite.js';
import { DEFAULT_CONFIG, type ScoringConfig } from './config.js';
import { createEarlyStop, type EarlyStop } from './early-stop/index.js';
import { classifyLucky, luckyReference } from './lucky.js';
import { DEFAULT_POLICY, type Policy } from './policy.js';
import { createForecaster, type Forecaster } from './forecast/forecaster.js';
import type { ForecastModel } from './forecast/model.js';
import { createPriorSignalTracker, type PriorSignalTracker } from './signals/prior-signals.js';
import { Score } from './score-vector.js';
import { expectedStates } from './pta/expected-states.js';
import { ptaPathCount } from './pta/paths.js';
import { runToEnd, STATES_PER_STEP } from './in-steps.js';
import type { ReferenceInfo, ScoreVector, Signal, State, Step } from './types.js';
import type { ForecastTrace, Pta, Scorer, ScorerOptions, StateRecords, StepResult, TrajectoryReport } from './scorer-api.js';
import { createCoherenceTracker, type CoherenceTracker } from './signals/coherence.js';
import { sharedRetryDetector, type SharedRetryDetector } from './signals/repeats.js';
import { createStructuralTracker, type StructuralTracker } from './signals/structural.js';
import { createTemporalTracker, referenceWindows, type TemporalTracker } from './signals/temporal.js';
import { createStateBuilder, type StateBuilder } from './state-builder.js';
import { StateColumns } from './state/state-columns.js';
import { ptaFileSet, snapshotHistory, wasteReportInSteps, type WasteHistory } from './waste/index.js';

/** Options of {@link createScorer}: the reference, the syntax ports, and optional config and policy. */
export type CreateScorerOptions = ScorerOptions & {
  config?: ScoringConfig;
  policy?: Policy;
  forecast?: ForecastModel;
  /**
   * With `forecast`: the features computed. 'model' (default): those the model reads (a third of the forecaster's
   * cost a step was evidence the bundled model does not read); 'all': every feature, kept at the sampled prefix
   * lengths for `forecastTrace` (what `serve --forecast-learn` refits on).
   */
  forecastFeatures?: 'model' | 'all';
};

/**
 * Creates a scorer for one trajectory. Before any step its score is all
 * zeros (struct and cov null when scored against the prior); after each
 * `push` it is the composite of the prefix pushed so far, and the step's
 * reward is f_t − f_{t−1} with f_{−1} = 0.
 */
export function createScorer(options: CreateScorerOptions): Scorer {
  return new IncrementalScorer(options);
}

/**
 * The scorer of {@link createScorer}: a class, so that a session keeps its fields in one object and shares the
 * methods (an object of closures cost each session a closure per method and a property array, ~1 KB).
 */
class IncrementalScorer implements Scorer {
  readonly reference: ReferenceInfo;
  declare forecastTrace?: () => ForecastTrace;
  private readonly cfg: ScoringConfig;
  private readonly pta: Pta | undefined;
  private readonly builder: StateBuilder;
  private readonly coherence: CoherenceTracker;
  private readonly temporal: TemporalTracker;
  private readonly structural: StructuralTracker | undefined;
  private readonly priorTracker: PriorSignalTracker | undefined;
  private readonly forecaster: Forecaster | undefined;
  private readonly earlyStop: EarlyStop;
  // Kept in columns (~40 B a state instead of ~130): states are rebuilt only for `states()` and the report.
  private readonly columns: StateColumns;
  private unknown = 0;
  private outcome: boolean | undefined;
  /**
   * The running score vector as numbers (total, struct, cov, coh, temp; struct and cov are null without a PTA): an
   * object kept from one step to the next would outlive a scavenge and be promoted (with its boxed numbers), once a
   * step for every session. A plain array of unboxed doubles (its kind once the first score is kept), not a
   * Float64Array: a typed array's view and buffer objects cost ~180 B more.
   */
  private readonly current: number[] = [0, 0, 0, 0, 0];
  private readonly retry: SharedRetryDetector;

  constructor(options: CreateScorerOptions) {
    const cfg = (this.cfg = options.config ?? DEFAULT_CONFIG);
    const policy = options.policy ?? DEFAULT_POLICY;
    const ref = options.reference;
    const pta = (this.pta = ref.kind === 'pta' ? ref.pta : undefined);
    // The states the session is expected to reach (its references' median): its columns and tables grow toward it.
    const expected = pta !== undefined ? expectedStates(pta) : 0;
    this.columns = new StateColumns(expected);
    this.builder = createStateBuilder(options.analyzers, { charsPerToken: cfg.charsPerToken, expectedStates: expected });
    // Coherence and the blind-retry signal see the same states in the same order: one retry history for both.
    const retry = (this.retry = sharedRetryDetector(expected));
    this.coherence = createCoherenceTracker(cfg.epsilon, retry);
    this.temporal = createTemporalTracker(ref.kind === 'pta' ? referenceWindows(ref.pta) : ref.prior.windows, cfg.alpha);
    this.structural = pta !== undefined ? createStructuralTracker(pta, cfg.tau) : undefined;
    this.priorTracker = pta === undefined ? createPriorSignalTracker(cfg.brevitySteps) : undefined;
    // The forecaster's retry feature reads the same shared detector (coherence feeds it each state before the forecaster).
    const forecaster = (this.forecaster = options.forecast !== undefined ? createForecaster(options.forecast, retry, options.forecastFeatures) : undefined);
    // Its counters keep the retry episodes, regression loops and cycle runs they find: the report reads them.
    this.earlyStop = createEarlyStop(policy, { retry, history: true });
    this.reference = pta !== undefined ? ptaReferenceInfo(pta) : PRIOR_INFO;
    const trace = forecaster?.trace;
    if (trace !== undefined) this.forecastTrace = trace;
  }

  push(step: Step): StepResult {
    const { cfg, structural, priorTracker } = this;
    const { label, state } = this.builder.next(step);
    this.columns.push(state);
    if (state.unknown) this.unknown += 1;
    this.coherence.add(state);
    this.temporal.add(state);
    structural?.add(state);
    priorTracker?.add(state, label.sourceEdit);
    const pPass = this.forecaster?.add(step, state, label);
    const score = composite(
      {
        struct: structural !== undefined ? structural.struct() : null,
        cov: structural !== undefined ? structural.cov() : null,
        coh: this.coherence.value(),
        temp: this.temporal.value(),
      },
      cfg.weights,
      priorTracker !== undefined ? { weights: cfg.priorWeights, signals: priorTracker.value() } : undefined,
    );
    const reward = score.total - this.current[0]!;
    this.keep(score);
    const signals = this.earlyStop.add(state, score.total, pPass);
    const tier = tierFor(score.total, this.outcome, cfg);
    this.retry.endStep();
    return pPass !== undefined ? { t: state.t, label, state, score, reward, tier, signals, pPass } : { t: state.t, label, state, score, reward, tier, signals };
  }

  get length(): number {
    return this.columns.length;
  }

  score(): ScoreVector {
    return this.vector();
  }

  private keep(v: ScoreVector): void {
    const c = this.current;
    c[0] = v.total;
    c[1] = v.struct ?? 0;
    c[2] = v.cov ?? 0;
    c[3] = v.coh;
    c[4] = v.temp;
  }

  /** The running score vector, in composite()'s key order. */
  private vector(): ScoreVector {
    const c = this.current;
    const ref = this.pta !== undefined;
    return new Score(c[0]!, ref ? c[1]! : null, ref ? c[2]! : null, c[3]!, c[4]!);
  }

  states(): readonly State[] {
    return this.columns.all();
  }

  state(i: number): State | undefined {
    return this.columns.at(i);
  }

  keptStates(): StateRecords {
    return this.columns;
  }

  release(): void {
    this.builder.release();
    this.columns.release();
  }

  compact(): void {
    this.builder.compact();
    this.columns.trim();
  }

  priorSignals(): PriorSignals | undefined {
    return this.priorTracker?.value();
  }

  setOutcome(passed: boolean | undefined): void {
    this.outcome = passed;
  }

  headline(passed?: boolean): Pick<TrajectoryReport, 'score' | 'tier' | 'pPass'> {
    const score = this.vector();
    return { score, tier: tierFor(score.total, passed, this.cfg), ...(this.forecaster !== undefined ? { pPass: this.forecaster.value() } : {}) };
  }

  report(passed?: boolean): TrajectoryReport {
    return runToEnd(this.reportInSteps(passed));
  }

  reportInSteps(passed?: boolean): Generator<void, TrajectoryReport> {
    // Read now, not at the first `next()`: the report is of the steps pushed so far, whatever is pushed meanwhile.
    const head = { length: this.columns.length, score: this.vector(), signals: this.earlyStop.signals().slice(), unknown: this.unknown, history: snapshotHistory(this.earlyStop.history()) };
    return this.reportOf(head, passed, this.forecaster?.value());
  }

  /** The report of the first `head.length` states (they never change: the columns are append-only), in steps. */
  private *reportOf(
    head: { length: number; score: ScoreVector; signals: Signal[]; unknown: number; history: WasteHistory },
    passed: boolean | undefined,
    pPass: number | undefined,
  ): Generator<void, TrajectoryReport> {
    const { cfg, pta } = this;
    const current = head.score;
    const all = new Array<State>(head.length);
    for (let i = 0; i < all.length; i++) {
      all[i] = this.columns.at(i)!; // i < the length read when asked
      if ((i + 1) % STATES_PER_STEP === 0) yield;
    }
    const waste = yield* wasteReportInSteps(all, { settings: cfg.waste, tau: cfg.tau, ptaFiles: pta?.files, ptaFileSet: pta !== undefined ? ptaFileSet(pta.files) : undefined, history: head.history });
    const tier = tierFor(current.total, passed, cfg);
    const lucky =
      passed === true && tier === 'Lucky' ? classifyLucky({ states: all, score: current, waste, reference: pta !== undefined ? luckyReference(pta.references) : undefined }, cfg.lucky) : undefined;
    // No spreads: this runs once a session with its code cold, where each spread (a copy of unknown shape) went to the
    // runtime (bench/README.md, "life18"). The keys in the same order, so the final's bytes are the same.
    const signals = head.signals;
    const steps = head.length;
    const stages = all.map((s) => s.stage).join('');
    const reference = referenceCopy(this.reference);
    const unknown = head.unknown;
    const report: TrajectoryReport =
      lucky === undefined ? { score: current, tier, waste, signals, steps, stages, reference, unknown } : { score: current, tier, lucky, waste, signals, steps, stages, reference, unknown };
    if (pPass !== undefined) report.pPass = pPass;
    return report;
  }
}

/** The reference info of every scorer against the prior. */
const PRIOR_INFO: ReferenceInfo = Object.freeze({ kind: 'prior' });

/**
 * The reference info of scorers against `pta`: one frozen object shared by the sessions of its task (a PTA is never
 * changed once built; its version and path count are checked all the same). Made a session, it was an allocation and
 * a freeze at every start, and a miss of the frame writer's cache of its JSON (frame-text.ts, keyed by this object) at
 * every session's first score frame (bench/README.md, "life18").
 */
const ptaInfos = new WeakMap<Pta, ReferenceInfo>();

function ptaReferenceInfo(pta: Pta): ReferenceInfo {
  const paths = ptaPathCount(pta);
  const kept = ptaInfos.get(pta);
  if (kept?.version === pta.version && kept.paths === paths) return kept;
  const info: ReferenceInfo = Object.freeze({ kind: 'pta', version: pta.version, paths });
  ptaInfos.set(pta, info);
  return info;
}

/** A copy of a scorer's reference info (frozen, and shared by the sessions of its PTA) for a report, in its key order. */
function referenceCopy(r: ReferenceInfo): ReferenceInfo {
  return r.kind === 'pta' ? { kind: r.kind, version: r.version, paths: r.paths } : { kind: r.kind };
}

/**
 * Batch scoring: folds {@link createScorer}'s `push` over the steps. The
 * results are exactly what an online client would have received (one that
 * sent the outcome, if `passed` is given, before its first step).
 */
export function scoreSteps(steps: readonly Step[], options: CreateScorerOptions & { passed?: boolean }): { results: StepResult[]; report: TrajectoryReport } {
  const scorer = createScorer(options);
  scorer.setOutcome(options.passed);
  const results = steps.map((s) => scorer.push(s));
  return { results, report: scorer.report(options.passed) };
}
