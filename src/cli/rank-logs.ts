/**
 * The logs `steplens rank` reads. Without --lenient the first file that cannot be read stops the command (one
 * line, exit 1). With --lenient, as `report --lenient`: each such file is skipped and named on stderr with its
 * reason, and the rest are ranked; but when skipping leaves fewer than 2 runs there is nothing to rank them against,
 * so the command still refuses.
 */
import { isSteplensError, SteplensError } from '../errors.js';
import type { FormatName } from '../formats/types.js';
import { printable } from '../text-files.js';
import { readLogFile, type LogFile } from './instances.js';

/** The fewest runs left after skipping that `rank --lenient` ranks. */
export const MIN_RANKED_RUNS_AFTER_SKIP = 2;

/** Reads `files` in order; with `lenient`, skips (and names on stderr) each one that cannot be read. */
export async function readRankLogs(files: readonly string[], format: FormatName | 'auto', lenient: boolean, stderr: (s: string) => void): Promise<{ logs: LogFile[]; skipped: string[] }> {
  const logs: LogFile[] = [];
  const skipped: string[] = [];
  for (const file of files) {
    try {
      logs.push(await readLogFile(file, format));
    } catch (error) {
      if (!lenient || !isSteplensError(error)) throw error;
      skipped.push(file);
      // The line names the file once: the reader's messages start with it already ("F: invalid JSON", "cannot read F: no such file").
      const prefix = [`${file}: `, `cannot read ${file}: `].find((p) => error.message.startsWith(p));
      const reason = prefix !== undefined ? error.message.slice(prefix.length) : error.message;
      stderr(`${printable(`skipped ${file}: ${reason}`)}\n`);
    }
  }
  return { logs, skipped };
}

/** Refuses a lenient read that skipped files and left fewer than {@link MIN_RANKED_RUNS_AFTER_SKIP} runs. */
export function checkRunsLeft(runs: number, skipped: readonly string[]): void {
  if (skipped.length === 0 || runs >= MIN_RANKED_RUNS_AFTER_SKIP) return;
  throw new SteplensError(
    'bad_input',
    `${runs === 0 ? 'no run' : `${runs} run`} left to rank after skipping ${skipped.length === 1 ? '1 unreadable file' : `${skipped.length} unreadable files`}: ranking needs ${MIN_RANKED_RUNS_AFTER_SKIP}`,
  );
}
