/** The PTA reference (method.md section 4): build, grow, walk, serialise, summarise. */
export { addReference, buildPta, holdsPath, type AddReferenceOptions, type PtaOptions } from './build.js';
export { nodeDepths, ptaPathCount, ptaPaths } from './paths.js';
export { ptaFromJson, ptaToJson } from './json.js';
export { formatPtaSummary, summarisePta, type PtaNodeSummary, type PtaPathSummary, type PtaSummary } from './summary.js';
