export { Labeler, type LabelOutcome, type LabelerOptions } from './labeler.js';
export { LabelHistory } from './history.js';
export { fileRole, isTestPath, hasScratchName, isBackupPath, isNotesPath, type FileRole } from './file-roles.js';
export { toRepoPath, stripRoot, rewriteRoots, normalizePosix, knownRoot, isOutsideRepo, type PathContext } from './paths.js';
export type { Intent } from './intent.js';
