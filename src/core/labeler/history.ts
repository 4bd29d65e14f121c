import { PackedTextMap } from '../memory/packed-text.js';

/** What the labeler remembers of a trajectory so far (rules 4-7 depend on it). */
export class LabelHistory {
  /** True once a source file (not test, not scratch) has been changed. */
  sourceEdited = false;
  /** Files the agent changed (any role), repo-relative. */
  readonly modified = new Set<string>();
  /** Files the agent created, repo-relative. */
  readonly created = new Set<string>();
  /** Files the agent has read or viewed (so a later shell write is not a creation). */
  readonly seen = new Set<string>();
  /** Text the agent wrote into files (editor creates, heredocs), so a later `python f.py` can be read for file writes. */
  readonly scripts = new PackedTextMap();

  /** True when the agent modified or created `file` earlier. */
  touched(file: string): boolean {
    return this.modified.has(file) || this.created.has(file);
  }
}
