/** Statistics for corpus reports (method.md section 10). Pure and deterministic. */
export { mean, median, quantile, averageRanks } from './descriptive.js';
export { logGamma, gammaP, gammaQ } from './special.js';
export { auroc, type AurocResult } from './auroc.js';
export { ksTwoSample, kolmogorovQ, type KsResult } from './ks.js';
export { chiSquareIndependence, chiSquareSf, type ChiSquareResult } from './chi-square.js';
export { fleissKappa } from './fleiss-kappa.js';
