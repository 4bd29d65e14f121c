/** Statistics for corpus reports (method.md section 10). Pure and deterministic. */
export { mean, median, quantile, averageRanks } from './descriptive.js';
export { logGamma, gammaP, gammaQ } from './special.js';
export { auroc, type AurocResult } from './auroc.js';
export { ksTwoSample, kolmogorovQ, type KsResult } from './ks.js';
export { chiSquareIndependence, chiSquareSf, type ChiSquareResult } from './chi-square.js';
export { fleissKappa } from './fleiss-kappa.js';
export { wilsonInterval, clopperPearsonInterval, rateInterval, meanOfRatesInterval, medianInterval, intervalsOverlap, type Interval, type RateIntervalMethod } from './interval.js';
export { seededRandom, type Random } from './rng.js';
export { bootstrapDraws, meanInterval, aurocInterval, BOOTSTRAP_DEFAULTS, MIN_RESAMPLE_UNITS, MIN_PER_SIDE, type BootstrapOptions } from './bootstrap.js';
export { clusteredRateInterval, clusteredMeanInterval, clusteredRatioInterval, clustersBy, type RateCluster, type RatioPart } from './clustered.js';
export { separation, MIN_PER_CLASS, type ScoredOutcome, type Separation, type SourceSeparation, type SeparationOptions } from './separation.js';
export { bestOfN, pickGroups, groupPick, type BestOfN, type GroupPick } from './best-of-n.js';
export { calibrationError, type CalibrationError, type Prediction, type ReliabilityBin } from './calibration-error.js';
export { rankWithTies, type RankInput, type RankResult } from './ranking.js';
