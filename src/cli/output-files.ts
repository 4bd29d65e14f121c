/**
 * Writing the files a command was asked for: every failure is one line, `cannot write FILE: reason`. A command whose
 * work is long checks its output paths first ({@link prepareOutputFile}), so a typo in `--out` costs no work.
 */
import { accessSync, constants, statSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { SteplensError } from '../errors.js';
import { writeFileAtomic } from '../store/atomic-write.js';
import { makeDirs, makeDirsSync } from '../store/make-dirs.js';

const REASONS: Record<string, string> = {
  ENOENT: 'no such file or directory',
  ENOTDIR: 'a parent is a file, not a directory',
  ENOTDIR_SELF: 'a file, not a directory',
  EEXIST: 'a parent is a file, not a directory',
  EISDIR: 'is a directory',
  EACCES: 'permission denied',
  EPERM: 'permission denied',
  EROFS: 'read-only file system',
  ENOSPC: 'no space left on the device',
  EDQUOT: 'disk quota exceeded',
};

/** The one-line error for a failed write of `file`. */
export function writeError(file: string, error: unknown): SteplensError {
  const code = (error as NodeJS.ErrnoException).code;
  const why = (code !== undefined ? REASONS[code] : undefined) ?? code ?? (error instanceof Error ? error.message : String(error));
  return new SteplensError('bad_input', `cannot write ${file}: ${why}`, { cause: error });
}

/** Writes `file` atomically (creating its folder), or throws `cannot write NAME: reason` (NAME: as the user wrote it). */
export async function writeOutputFile(file: string, text: string, name = file): Promise<void> {
  try {
    await makeDirs(dirname(file));
    await writeFileAtomic(file, text);
  } catch (error) {
    throw writeError(name, error);
  }
}

/**
 * Before the work: `file` must not be a directory and its folder must be writable; a missing folder is created now
 * (as the write would). Throws `cannot write NAME: reason`.
 */
export function prepareOutputFile(file: string, name = file): void {
  try {
    if (statSync(file, { throwIfNoEntry: false })?.isDirectory()) throw Object.assign(new Error('is a directory'), { code: 'EISDIR' });
    makeDirsSync(dirname(file));
    accessSync(dirname(file), constants.W_OK);
  } catch (error) {
    throw writeError(name, error);
  }
}

/** Before the work: `dir` is a folder (created now when missing) that can be written in. Throws `cannot write NAME: reason`. */
export function prepareOutputDir(dir: string, name = dir): void {
  try {
    if (statSync(dir, { throwIfNoEntry: false })?.isDirectory() === false) throw Object.assign(new Error('a file'), { code: 'ENOTDIR_SELF' });
    makeDirsSync(dir);
    accessSync(dir, constants.W_OK);
  } catch (error) {
    throw writeError(name, error);
  }
}

/** Writes `file` (creating its folder), not atomically: for data a caller holds as bytes (a gzip file). Throws as {@link writeOutputFile}. */
export function writeOutputFileSync(file: string, data: string | Uint8Array, name = file): void {
  try {
    makeDirsSync(dirname(file));
    writeFileSync(file, data);
  } catch (error) {
    throw writeError(name, error);
  }
}
