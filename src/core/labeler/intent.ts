import type { ActionKind, LineRange } from '../types.js';

/**
 * What one action (or one command of a shell line) does, before the
 * history-dependent rules pick a stage. Paths are repo-relative.
 */
export type Intent =
  /** Rule 1: orchestration and housekeeping. `changes` when files change (`git checkout -- f`). */
  | { type: 'orchestration'; kind: ActionKind; changes?: boolean; file?: string }
  /** Rule 2: a test runner; `file` is the test target when there is one. */
  | { type: 'test'; file?: string }
  /**
   * Rules 1, 3, 7: a file write. `create`: certainly a new file; `mayCreate`: a new file unless seen before
   * (`>` redirection, `tee`); `softCreate`: `touch`, housekeeping unless the file is source; `restore`: from a backup
   * (an undo, rule 1); `move`: `mv a b`, housekeeping unless `b` is a source file; `script`: written by a Python script;
   * `rejected`: the editor refused the edit (the step failed), so the file did not change.
   */
  | {
      type: 'write';
      file?: string;
      create: boolean;
      mayCreate?: boolean;
      range?: LineRange;
      softCreate?: boolean;
      restore?: boolean;
      move?: boolean;
      script?: boolean;
      rejected?: boolean;
    }
  /** Rule 4: retrieval (`grep`, `find`, `ls`, `git log`); `targets` are the files/dirs it inspects. */
  | { type: 'inspect'; kind: 'search' | 'list' | 'vcs'; targets: string[] }
  /** Rule 5: a read of one file (or a few). */
  | { type: 'read'; files: string[]; range?: LineRange; whole?: boolean; numbered?: boolean }
  /** Rule 6: a run of a script, a build, a VCS status query; `file` is the script. */
  | { type: 'run'; kind: 'run_script' | 'run_other' | 'vcs'; file?: string }
  /** Rule 6: package installs and environment set-up (O). */
  | { type: 'install' }
  /** No rule knows it. */
  | { type: 'unknown' };
