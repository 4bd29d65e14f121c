/**
 * Whether the run edited files it had looked at: read (viewed or searched in) before
 * the first edit of each, or named in an error's frames before it. A fix aimed where the
 * run looked is more likely to be the fix.
 */
import { cappedSet, type EvidenceSignal } from './tracker.js';

export interface TargetEvidence {
  /** Share of the source files edited that had been read before their first edit (0 when none edited). */
  readShare: number;
  /** Share of the source files edited that an error had named before their first edit (0 when none edited). */
  traceShare: number;
}

/** Caps **(choice)**: files read, files named by errors, source files edited. */
export const MAX_READ_FILES = 512;
export const MAX_TRACE_FILES = 256;
export const MAX_EDITED_FILES = 256;

const baseName = (p: string): string => p.slice(p.lastIndexOf('/') + 1);

/** True when an error's path names `file`: the same path, one ending in it (an absolute frame), or a bare file name equal to its name (a Java frame). */
export function traceNames(tracePath: string, file: string): boolean {
  return tracePath === file || tracePath.endsWith(`/${file}`) || file.endsWith(`/${tracePath}`) || (!tracePath.includes('/') && tracePath === baseName(file));
}

export function createTargetTracker(): EvidenceSignal<TargetEvidence> {
  const read = cappedSet(MAX_READ_FILES);
  // Paths named by errors, by file name, so a lookup scans only the paths of one name.
  const traced = new Map<string, string[]>();
  // The same paths, to skip a path seen before without taking its name (an error repeated names the same frames).
  const tracedPaths = new Set<string>();
  const edited = cappedSet(MAX_EDITED_FILES);
  let wasRead = 0;
  let wasTraced = 0;
  // The value changes only when a new source file is edited (kept, not rebuilt on every read).
  let value: TargetEvidence = { readShare: 0, traceShare: 0 };
  return {
    add(e) {
      const c = e.changed;
      if (c?.role === 'source' && !edited.has(c.file) && edited.size < MAX_EDITED_FILES) {
        edited.add(c.file);
        if (read.has(c.file)) wasRead += 1;
        if ((traced.get(baseName(c.file)) ?? []).some((p) => traceNames(p, c.file))) wasTraced += 1;
        value = { readShare: wasRead / edited.size, traceShare: wasTraced / edited.size };
      }
      if (e.read !== undefined) read.add(e.read);
      for (const p of e.tracePaths) {
        if (tracedPaths.size >= MAX_TRACE_FILES) break;
        if (tracedPaths.has(p)) continue;
        tracedPaths.add(p);
        const name = baseName(p);
        const list = traced.get(name);
        if (list === undefined) traced.set(name, [p]);
        else list.push(p);
      }
    },
    value: () => value,
  };
}
