/**
 * The scoring core's public API for users of the package (pure: no I/O), re-exported
 * by src/index.ts. Inside the repository a module imports the file it needs; which
 * folders may import which is CONTRIBUTING.md's layering, checked by test/boundaries.
 */
export * from './types.js';
export type { Analyzers, ParsedShell, ScopeResolver, ShellAnalyzer, SimpleCommand } from './ports.js';
export * from './scorer-api.js';
export { createScorer, scoreSteps, type CreateScorerOptions } from './scorer.js';
export { DEFAULT_CONFIG, configInputSchema, resolveConfig, type LuckyThresholds, type ScoringConfig, type TierThresholds, type WasteSettings, type Weights } from './config.js';
export { DEFAULT_POLICY, policyInputSchema, resolvePolicy, type Levels, type Policy, type PolicyInput } from './policy.js';
export { composite, passTierFor, tierFor, type SignalValues } from './composite.js';
export { compare, conf, equivalent, DEFAULT_TAU, type EquivalenceTier } from './equivalence.js';
export * from './pta/index.js';
export { priorFromPtas, UNIFORM_PRIOR } from './prior.js';
export { createCoherenceTracker, type CoherenceCounts, type CoherenceTracker } from './signals/coherence.js';
export { createRetryDetector, REPEAT_EXEMPT_KINDS } from './signals/repeats.js';
export { createTemporalTracker, jsd, referenceWindows, windowBounds, windowDistributions, DEFAULT_ALPHA, type Windows } from './signals/temporal.js';
export { createStructuralTracker, type StructuralTracker } from './signals/structural.js';
export { distinctWaste, wasteReport, wastedStepSet, type WasteOptions } from './waste/index.js';
export { classifyLucky, implTargets, luckyReference, type LuckyInput, type LuckyReference } from './lucky.js';
export { median, quantile } from './stats/descriptive.js';
export { createEarlyStop, type EarlyStop } from './early-stop/index.js';
export { createStateBuilder } from './state-builder.js';
