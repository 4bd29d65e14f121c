/**
 * The incremental scorer (method.md sections 5-8): one state builder, the
 * coherence, temporal and (with a PTA) structural trackers, the composite,
 * the step reward and the early-stop detectors, fed one step at a time.
 * `scoreSteps` is the same code folded over a whole trajectory, so online and
 * batch scores of every prefix are identical to the last bit.
 */
import { composite, tierFor } from './composite.js';
import { DEFAULT_CONFIG, type ScoringConfig } from './config.js';
import { createEarlyStop } from './early-stop/index.js';
import { classifyLucky, luckyReference } from './lucky.js';
import { DEFAULT_POLICY, type Policy } from './policy.js';
import { createForecaster } from './forecast/forecaster.js';
import type { ForecastModel } from './forecast/model.js';
import { createPriorSignalTracker } from './signals/prior-signals.js';
import { ptaPathCount } from './pta/paths.js';
import type { ReferenceInfo, ScoreVector, Step } from './types.js';
import type { Pta, Scorer, ScorerOptions, StepResult, TrajectoryReport } from './scorer-api.js';
import { createCoherenceTracker } from './signals/coherence.js';
import { sharedRetryDetector } from './signals/repeats.js';
import { createStructuralTracker } from './signals/structural.js';
import { createTemporalTracker, referenceWindows } from './signals/temporal.js';
import { createStateBuilder } from './state-builder.js';
import { StateColumns } from './state/state-columns.js';
import { wasteReport } from './waste/index.js';

/** Options of {@link createScorer}: the reference, the syntax ports, and optional config and policy. */
export type CreateScorerOptions = ScorerOptions & { config?: ScoringConfig; policy?: Policy; forecast?: ForecastModel };

/**
 * Creates a scorer for one trajectory. Before any step its score is all
 * zeros (struct and cov null when scored against the prior); after each
 * `push` it is the composite of the prefix pushed so far, and the step's
 * reward is f_t − f_{t−1} with f_{−1} = 0.
 */
export function createScorer(options: CreateScorerOptions): Scorer {
  const cfg = options.config ?? DEFAULT_CONFIG;
  const policy = options.policy ?? DEFAULT_POLICY;
  const ref = options.reference;
  const pta: Pta | undefined = ref.kind === 'pta' ? ref.pta : undefined;
  const builder = createStateBuilder(options.analyzers, { charsPerToken: cfg.charsPerToken });
  // Coherence and the blind-retry signal see the same states in the same order: one retry history for both.
  const retry = sharedRetryDetector();
  const coherence = createCoherenceTracker(cfg.epsilon, retry);
  const temporal = createTemporalTracker(ref.kind === 'pta' ? referenceWindows(ref.pta) : ref.prior.windows, cfg.alpha);
  const structural = pta !== undefined ? createStructuralTracker(pta, cfg.tau) : undefined;
  const priorSignals = pta === undefined ? createPriorSignalTracker(cfg.brevitySteps) : undefined;
  const forecaster = options.forecast !== undefined ? createForecaster(options.forecast) : undefined;
  const earlyStop = createEarlyStop(policy, { retry });
  // Kept in columns (~40 B a state instead of ~130): states are rebuilt only for `states()` and the report.
  const states = new StateColumns();
  let unknown = 0;
  let outcome: boolean | undefined;
  let current: ScoreVector = { total: 0, struct: pta ? 0 : null, cov: pta ? 0 : null, coh: 0, temp: 0 };
  const reference: ReferenceInfo = Object.freeze(pta !== undefined ? { kind: 'pta', version: pta.version, paths: ptaPathCount(pta) } : { kind: 'prior' });

  return {
    push(step: Step): StepResult {
      const { label, state } = builder.next(step);
      states.push(state);
      if (state.unknown) unknown += 1;
      coherence.add(state);
      temporal.add(state);
      structural?.add(state);
      priorSignals?.add(state, label.sourceEdit);
      const pPass = forecaster?.add(step, state, label);
      const score = composite(
        {
          struct: structural !== undefined ? structural.struct() : null,
          cov: structural !== undefined ? structural.cov() : null,
          coh: coherence.value(),
          temp: temporal.value(),
        },
        cfg.weights,
        priorSignals !== undefined ? { weights: cfg.priorWeights, signals: priorSignals.value() } : undefined,
      );
      const reward = score.total - current.total;
      current = score;
      const signals = earlyStop.add(state, score.total, pPass);
      const tier = tierFor(score.total, outcome, cfg);
      return pPass !== undefined ? { t: state.t, label, state, score, reward, tier, signals, pPass } : { t: state.t, label, state, score, reward, tier, signals };
    },
    get length() {
      return states.length;
    },
    reference,
    score: () => ({ ...current }),
    states: () => states.all(),
    state: (i: number) => states.at(i),
    setOutcome(passed) {
      outcome = passed;
    },
    ...(forecaster !== undefined ? { forecastTrace: () => forecaster.trace() } : {}),
    report(passed?: boolean): TrajectoryReport {
      const all = states.all();
      const waste = wasteReport(all, { settings: cfg.waste, tau: cfg.tau, ptaFiles: pta?.files });
      const tier = tierFor(current.total, passed, cfg);
      const lucky =
        passed === true && tier === 'Lucky' ? classifyLucky({ states: all, score: current, waste, reference: pta !== undefined ? luckyReference(pta.references) : undefined }, cfg.lucky) : undefined;
      return {
        score: { ...current },
        tier,
        ...(lucky !== undefined ? { lucky } : {}),
        waste,
        signals: [...earlyStop.signals()],
        steps: states.length,
        stages: all.map((s) => s.stage).join(''),
        reference: { ...reference },
        unknown,
        ...(forecaster !== undefined ? { pPass: forecaster.value() } : {}),
      };
    },
  };
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
