/** The PTA reference (method.md section 4): build, grow, walk, serialise, summarise. */
export { addReference, addReferenceInSteps, buildPta, buildPtaInSteps, holdsPath, knownPtaJsonBytes, ptaJsonBytes, rememberPtaJsonBytes, type AddReferenceOptions, type PtaOptions } from './build.js';
export { DEFAULT_PTA_LIMITS, growWithin, growWithinSteps, type PtaLimits } from './limits.js';
export { nodeDepths, ptaPathCount, ptaPaths } from './paths.js';
export { ptaFromJson, ptaFromValueInSteps, ptaToJson, statesFromJson } from './json.js';
export { nodesOpened } from './novelty.js';
export { formatPtaSummary, summarisePta, type PtaNodeSummary, type PtaPathSummary, type PtaSummary } from './summary.js';
