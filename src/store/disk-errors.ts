/**
 * A write the disk refuses, as a catalogue error: a full disk answered 500 `internal` (issue 25); it is
 * `unavailable` (503, retry later) with the cause, and nothing was written. Other faults stay faults.
 */
import { SteplensError } from '../errors.js';

const CAUSES: Record<string, string> = {
  ENOSPC: 'the data folder has no space left',
  EDQUOT: 'the data folder is over its disk quota',
  EROFS: 'the data folder is on a read-only filesystem',
  EACCES: 'the data folder is not writable (permission denied)',
  EPERM: 'the data folder is not writable (operation not permitted)',
  EIO: 'the data folder had an I/O error',
  EMFILE: 'the server has too many open files',
  ENFILE: 'the system has too many open files',
};

/** `error` as `unavailable` naming `what` and the cause when the disk refused the write; else `error` itself. */
export function writeFailure(error: unknown, what: string): unknown {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  const cause = code !== undefined ? CAUSES[code] : undefined;
  return cause === undefined ? error : new SteplensError('unavailable', `${what}: ${cause} (${code}); retry once it is fixed`, { cause: error });
}
