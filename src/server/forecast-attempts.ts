/**
 * The retraining attempts `serve --forecast-learn` made, saved per scope beside the version files so a restart
 * still lists them (`GET /v1/forecast`, `learning.attempts`): `<dir>/attempts.json`, a tenant's
 * `<dir>/tenants/<tenant>/attempts.json` (its attempts only). One JSON document (protocol/forecast-attempts.ts)
 * naming the `--forecast` file they were made over (the digest version files record) and the learning scope, then
 * the scope's latest attempts (at most the learner's bound, `--limit forecastAttempts=N`), rewritten whole and
 * atomically after each attempt.
 *
 * Read back at start when the versions and kept sessions are (same `--forecast` file, not `--forecast-learn-fresh`).
 * A file that is not JSON, does not parse, or was written over another `--forecast` file, scope or tenant is not
 * read (one warn line naming it and why; the list starts empty, startup goes on) and is replaced at the scope's next
 * attempt. Writes go in order, one at a time per file; a failed one is logged and the next rewrites the file.
 */
import { mkdir, stat } from 'node:fs/promises';
import path from 'node:path';
import type { Logger } from 'pino';
import { FORECAST_ATTEMPTS_FORMAT, FORECAST_ATTEMPTS_VERSION, forecastAttemptsFileSchema, type ForecastAttemptsFile, type LearnAttempt } from '../protocol/forecast-attempts.js';
import { writeFileAtomic } from '../store/atomic-write.js';
import { readTextSync } from '../text-files.js';
import { mismatch, parseLine, type ScopeHeader } from './forecast-runs.js';

export const ATTEMPTS_FILE = 'attempts.json';

/** The file of a scope (`want`: the runs header it would be read with) holding `attempts`. */
export function attemptsFile(want: ScopeHeader, attempts: readonly LearnAttempt[]): ForecastAttemptsFile {
  const { digest, version, createdAt } = want.learnedFrom;
  return {
    format: FORECAST_ATTEMPTS_FORMAT,
    version: FORECAST_ATTEMPTS_VERSION,
    learnedFrom: { digest, version, createdAt },
    scope: want.scope,
    ...(want.tenant !== undefined ? { tenant: want.tenant } : {}),
    attempts: [...attempts],
  };
}

/**
 * The attempts `file` holds if it was written over the same `--forecast` file, scope and tenant as `want`, the newest
 * `kept`; empty if it is absent or not read (one warn line; see the file comment). Never throws.
 */
export async function readAttemptsFile(file: string, want: ScopeHeader, kept: number, log: Logger): Promise<LearnAttempt[]> {
  const exists = await stat(file).then(
    () => true,
    (error: NodeJS.ErrnoException) => error.code !== 'ENOENT',
  );
  if (!exists) return [];
  const text = readTextSync(file, { regularOnly: true });
  const parsed = text.ok ? parseLine(text.value, forecastAttemptsFileSchema) : { why: text.error.message };
  const why = 'why' in parsed ? parsed.why : mismatch(parsed.value, want, 'attempts');
  if ('why' in parsed || why !== undefined) {
    log.warn({ file, why }, 'forecast attempts not restored: the list starts empty');
    return [];
  }
  return parsed.value.attempts.slice(-Math.max(1, kept));
}

/** A scope's attempts file as this server writes it (see the file comment). */
export class AttemptsLog {
  private queue: Promise<void> = Promise.resolve();

  constructor(
    readonly file: string,
    private readonly header: ScopeHeader,
    private readonly log: Logger,
  ) {}

  /** Saves `attempts`, the scope's latest, in place of what the file held. */
  record(attempts: readonly LearnAttempt[]): void {
    const text = `${JSON.stringify(attemptsFile(this.header, attempts), null, 2)}\n`;
    this.queue = this.queue
      .then(async () => {
        await mkdir(path.dirname(this.file), { recursive: true });
        await writeFileAtomic(this.file, text);
      })
      .catch((error: unknown) => this.log.warn({ err: error, file: this.file }, 'forecast attempts not saved: the next attempt rewrites the file'));
  }

  /** Resolves once every write recorded so far is done. */
  flush(): Promise<void> {
    return this.queue;
  }
}
