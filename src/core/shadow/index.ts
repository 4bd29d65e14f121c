/** Shadow mode's pure parts (issue 14): candidates, counters, promotion. */
export { CONFIGURED, candidateStops, shadowCandidates, shadowPlan, type ShadowCandidate, type ShadowPlan } from './candidates.js';
export { countersOf, emptyCounters, passingAllowed, promotable, recordRun, upperOf, type CandidateCounters, type PairCounters, type PromotionRule } from './counters.js';
