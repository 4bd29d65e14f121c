/**
 * The file store's data folder itself: created with one clear error, and reported not ready while (nearly) full.
 */
import { statfs } from 'node:fs/promises';
import { SteplensError } from '../errors.js';
import { makeDirs } from './make-dirs.js';

/** Free bytes below which the data folder is reported full (readiness). */
const MIN_FREE_BYTES = 1024 * 1024;

/** Creates `dir` (and the folders above it). */
export async function createDataFolder(dir: string): Promise<void> {
  try {
    await makeDirs(dir);
  } catch (error) {
    // One line naming the folder (`serve --data` on a file, a folder it may not create), not an internal error.
    const code = (error as NodeJS.ErrnoException).code;
    const why = code === 'EEXIST' || code === 'ENOTDIR' ? 'it (or a folder above it) is a file' : code === 'EACCES' || code === 'EPERM' ? 'permission denied' : (error as Error).message;
    throw new SteplensError('bad_input', `data folder ${dir} cannot be created: ${why}`);
  }
}

/** Not ready while the data folder has less than {@link MIN_FREE_BYTES} free (a reference would not fit). */
export async function dataFolderHealth(dir: string): Promise<string | undefined> {
  try {
    const fs = await statfs(dir);
    const free = fs.bavail * fs.bsize;
    return free < MIN_FREE_BYTES ? `the data folder has ${free} bytes free: references cannot be stored` : undefined;
  } catch (error) {
    return `the data folder cannot be checked (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`;
  }
}
