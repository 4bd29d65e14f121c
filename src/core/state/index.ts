export { normalizeCommand, commandTokens, hashContent, md5, collapseWhitespace } from './normalize.js';
export { stepFailed } from './failure.js';
export { stepCost, actionText } from './cost.js';
export { ShadowWorkspace } from './shadow-workspace.js';
export { parseNumberedLines, plainLines } from './numbered-text.js';
export { updateWorkspace, scopeOf, observationText } from './workspace-update.js';
