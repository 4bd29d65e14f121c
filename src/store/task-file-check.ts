/**
 * The file store's check of one task file (at open, and on each read after it left the cache): what pta-files.ts
 * reads it as, with a warning naming the file for anything but a PTA of the task.
 */
import path from 'node:path';
import type { Pta } from '../core/scorer-api.js';
import { moveAside, readPtaFile } from './pta-files.js';

/** A PTA as the store caches it: with the bytes of its file. */
export interface PtaEntry {
  pta: Pta;
  bytes: number;
}

/**
 * Reads a task file; anything but a PTA it accepts is warned about (naming the file) and yields
 * undefined: a broken PTA in the data directory is moved aside, anything else is left where it is.
 */
export async function checkTaskFile(
  file: string,
  dataDir: string,
  warn: (message: string) => void,
  accepts: (task: string) => boolean,
): Promise<PtaEntry | { task: string; removed: number } | undefined> {
  let found;
  try {
    found = await readPtaFile(file, accepts);
  } catch (error) {
    warn(`${file}: unreadable (${(error as NodeJS.ErrnoException).code ?? (error as Error).message}): skipped`);
    return undefined;
  }
  if (found.kind === 'pta') return { pta: found.pta, bytes: found.bytes };
  if (found.kind === 'removed') return { task: found.task, removed: found.version };
  if (found.kind === 'foreign' || path.dirname(file) !== dataDir) {
    warn(`${file}: ${found.why}: skipped (left in place)`);
    return undefined;
  }
  try {
    warn(`${file}: ${found.why}: moved aside to ${await moveAside(file)}; its task falls back to the prior until a reference is added`);
  } catch (error) {
    warn(`${file}: ${found.why}: skipped (could not move it aside: ${(error as NodeJS.ErrnoException).code ?? 'error'})`);
  }
  return undefined;
}
