/**
 * The final patch: from the submitted diff when the log has one (the latest wins), else
 * from the file changes seen. Sizes are of source files only (not tests, scratch scripts,
 * notes or backups), on a log scale.
 */
import { cappedSet, type EvidenceSignal } from './tracker.js';

export interface PatchEvidence {
  /** 1 when the patch changes no source file. */
  empty: number;
  /** 1 when it changes test files and no source file. */
  testOnly: number;
  /** ln(1 + source files changed). */
  files: number;
  /** ln(1 + source lines changed): added plus removed lines of the diff; from edits, old plus new text of each edit (every edit counted, even one undone later). */
  lines: number;
  /** 1 when these come from a submitted diff (0: from the edits seen). Not evidence of quality: which harnesses log a diff. */
  submitted: number;
}

/** At most this many distinct changed files are counted **(choice)**. */
export const MAX_PATCH_FILES = 256;

export function createPatchTracker(): EvidenceSignal<PatchEvidence> {
  const sourceFiles = cappedSet(MAX_PATCH_FILES);
  let testChanged = false;
  let sourceLines = 0;
  let submitted: { source: number; test: number; lines: number } | undefined;
  // The value, recomputed only on a step that changes it (the forecaster reads it after every step).
  const compute = (): PatchEvidence => {
    const s = submitted ?? { source: sourceFiles.size, test: testChanged ? 1 : 0, lines: sourceLines };
    return {
      empty: s.source === 0 ? 1 : 0,
      testOnly: s.source === 0 && s.test > 0 ? 1 : 0,
      files: Math.log1p(s.source),
      lines: Math.log1p(s.lines),
      submitted: submitted !== undefined ? 1 : 0,
    };
  };
  let value = compute();
  return {
    add(e) {
      if (e.changed === undefined && e.patch === null) return;
      if (e.changed !== undefined) {
        if (e.changed.role === 'source') {
          sourceFiles.add(e.changed.file);
          sourceLines += e.changed.lines;
        } else if (e.changed.role === 'test') testChanged = true;
      }
      if (e.patch !== null) {
        const source = e.patch.filter((f) => f.role === 'source');
        submitted = { source: source.length, test: e.patch.filter((f) => f.role === 'test').length, lines: source.reduce((n, f) => n + f.lines, 0) };
      }
      value = compute();
    },
    value: () => value,
  };
}
