/** The direction each evidence value was expected to point (+1: higher means passing more likely), fixed before measuring; shared by the evidence and rank benches. */
import type { EvidenceName } from '../../src/core/evidence/evidence.js';

export const EXPECTED: Record<EvidenceName, 1 | -1> = {
  testSeen: 1,
  testPassed: 1,
  testFailed: -1,
  testPassShare: 1,
  checkAfterEdit: 1,
  reproFailedBeforeEdit: 1,
  reproFlipped: 1,
  errorSinceEdit: -1,
  errorLast: -1,
  patchEmpty: -1,
  patchTestOnly: -1,
  patchFiles: -1,
  patchLines: -1,
  patchCompact: 1,
  editedReadShare: 1,
  editedTraceShare: 1,
};
