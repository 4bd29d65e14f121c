/** Shadow mode's pure parts (issue 14): candidates, counters, promotion. */
export { CONFIGURED, candidateStops, shadowCandidates, type ShadowCandidate } from './candidates.js';
export { countersOf, emptyCounters, promotable, recordRun, upperOf, type CandidateCounters, type PairCounters, type PromotionRule } from './counters.js';
