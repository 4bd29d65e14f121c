/** Writing the files a command was asked for: every failure is one line, `cannot write FILE: reason`. */
import { mkdir } from 'node:fs/promises';
import { dirname } from 'node:path';
import { SteplensError } from '../errors.js';
import { writeFileAtomic } from '../store/atomic-write.js';

const REASONS: Record<string, string> = {
  ENOENT: 'no such file or directory',
  ENOTDIR: 'a parent is a file, not a directory',
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
    await mkdir(dirname(file), { recursive: true });
    await writeFileAtomic(file, text);
  } catch (error) {
    throw writeError(name, error);
  }
}
