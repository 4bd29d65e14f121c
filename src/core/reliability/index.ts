/** Multi-trial reliability metrics (method.md section 9). Pure and deterministic. */
export * from './types.js';
export { reliabilityMetrics, attemptsByTask, attemptChurn } from './metrics.js';
export { reliabilityIntervals, type ReliabilityIntervals } from './intervals.js';
export { paretoFronts, dominates, reliabilityVector } from './pareto.js';
export { patchLines, editVolume, stepEditVolume, patchChurn } from './patch-churn.js';
export { classifyToolFailure, isToolCall } from './tool-failures.js';
export { attemptFacts, type AttemptFacts } from './attempt-facts.js';
