/**
 * The sessions `serve --forecast-learn` keeps (forecast-learner.ts), saved per scope beside the version files so a
 * restart resumes with them: `<dir>/runs.jsonl`, a tenant's `<dir>/tenants/<tenant>/runs.jsonl` (its sessions only).
 * JSON Lines (protocol/forecast-runs.ts): a header naming the `--forecast` file they were kept over (the digest
 * version files record), the learning scope and the feature catalogue; then, appended as they happen, each session
 * kept, each dropped past the bound and each attempt. Read back, the lines give the scope's kept sessions, numbered,
 * in order, and whether an attempt has seen them all: what the learner held when the file was last written.
 *
 * Bounded: when the lines after the header would pass twice the scope's sessions plus {@link SLACK}, the file is
 * rewritten (atomically) with the sessions kept and nothing else. A file of another `--forecast` file, scope, tenant
 * or feature catalogue, or whose header does not parse, is not read (one warn line) and is replaced at the scope's
 * first write; a bad line is skipped with a warn line naming the file and line (startup never fails on one), and the
 * file is rewritten at the scope's next write. Writes go in order, one at a time per file; a failed one is logged
 * and the next write rewrites the file.
 */
import { createReadStream } from 'node:fs';
import { appendFile, mkdir } from 'node:fs/promises';
import path from 'node:path';
import { createInterface } from 'node:readline';
import type { Logger } from 'pino';
import type { z } from 'zod';
import { formatIssues } from '../core/config.js';
import { FEATURE_NAMES } from '../core/forecast/features.js';
import type { ForecastRun } from '../core/forecast/run.js';
import { FORECAST_RUNS_FORMAT, FORECAST_RUNS_VERSION, forecastRunsHeaderSchema, forecastRunsLineSchema, type FeatureValue, type ForecastRunsHeader } from '../protocol/forecast-runs.js';
import { writeFileAtomic } from '../store/atomic-write.js';

/** A kept session: its run and its number in the order sessions were kept (over every scope). */
export type KeptRun = ForecastRun & { n: number };

export const RUNS_FILE = 'runs.jsonl';
/** Lines past twice the sessions kept before a rewrite (a few, so small scopes are not rewritten at every write). */
export const SLACK = 8;
/** Bad lines of one file warned of one by one; past it, one line counts the rest. */
const WARNED_LINES = 10;

const encode = (v: number): FeatureValue => (Number.isFinite(v) ? (Object.is(v, -0) ? '-0' : v) : (String(v) as FeatureValue));
const decode = (v: FeatureValue): number => (typeof v === 'number' ? v : Number(v));

export const runLine = (r: KeptRun): string =>
  JSON.stringify({ kind: 'run', n: r.n, id: r.id, task: r.task, agent: r.agent, model: r.model, passed: r.passed, length: r.length, at: [...r.at], rows: Array.from(r.rows, encode) });
export const droppedLine = (n: number): string => JSON.stringify({ kind: 'drop', n });
export const TRIED_LINE = JSON.stringify({ kind: 'tried' });

/** The header of a scope's file. */
export function runsHeader(learnedFrom: ForecastRunsHeader['learnedFrom'], scope: ForecastRunsHeader['scope'], tenant: string | undefined): ForecastRunsHeader {
  const { digest, version, createdAt } = learnedFrom;
  return {
    kind: 'header',
    format: FORECAST_RUNS_FORMAT,
    version: FORECAST_RUNS_VERSION,
    learnedFrom: { digest, version, createdAt },
    scope,
    ...(tenant !== undefined ? { tenant } : {}),
    features: [...FEATURE_NAMES],
  };
}

/** What a scope's saved file says it was kept over (the runs header; the attempts file has no feature catalogue). */
export type ScopeHeader = Pick<ForecastRunsHeader, 'learnedFrom' | 'scope' | 'tenant'> & { features?: readonly string[] };

/** Why a file with header `got` (of `what`: sessions, attempts) is not read by a server whose header is `want` (undefined: it is read). */
export function mismatch(got: ScopeHeader, want: ScopeHeader, what = 'sessions'): string | undefined {
  if (got.learnedFrom.digest !== want.learnedFrom.digest) {
    return `kept over another forecast file (version ${got.learnedFrom.version} of ${got.learnedFrom.createdAt}) than the one loaded (version ${want.learnedFrom.version} of ${want.learnedFrom.createdAt})`;
  }
  if (got.scope !== want.scope) return `kept in the ${got.scope} learning scope, not the ${want.scope} one`;
  if (got.tenant !== want.tenant) return got.tenant === undefined ? `the shared scope's ${what} in a tenant's directory` : `tenant ${got.tenant}'s ${what}`;
  if (got.features !== undefined && want.features !== undefined && got.features.join() !== want.features.join()) return 'written with another feature catalogue (another steplens)';
  return undefined;
}

/** A scope's file as read: its sessions, oldest first; whether some were kept after the last attempt; its lines after the header; its bad lines. */
export interface ReadRuns {
  runs: KeptRun[];
  pending: boolean;
  lines: number;
  bad: number;
}

/** Reads `file` if it was written over the same header as `want` (see the file comment); undefined if it is absent or not read. Never throws. */
export async function readRunsFile(file: string, want: ForecastRunsHeader, log: Logger): Promise<ReadRuns | undefined> {
  const runs = new Map<number, KeptRun>();
  const out: ReadRuns = { runs: [], pending: false, lines: 0, bad: 0 };
  let lineNo = 0;
  try {
    const lines = createInterface({ input: createReadStream(file, 'utf8'), crlfDelay: Infinity });
    for await (const text of lines) {
      lineNo += 1;
      if (lineNo === 1) {
        const header = parseLine(text, forecastRunsHeaderSchema);
        const why = 'why' in header ? `its header: ${header.why}` : mismatch(header.value, want);
        if (why !== undefined) {
          log.warn({ file, why }, 'forecast sessions not restored');
          return undefined;
        }
        continue;
      }
      out.lines += 1;
      const parsed = parseLine(text, forecastRunsLineSchema);
      if ('why' in parsed) {
        if (++out.bad <= WARNED_LINES) log.warn({ file, line: lineNo, why: parsed.why }, 'forecast session line skipped');
        continue;
      }
      const line = parsed.value;
      if (line.kind === 'tried') out.pending = false;
      else if (line.kind === 'drop') runs.delete(line.n);
      else {
        const { kind, n, at, rows, ...identity } = line;
        runs.set(n, { ...identity, at: Int32Array.from(at), rows: Float64Array.from(rows, decode), n });
        out.pending = true;
      }
    }
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') log.warn({ err: error, file }, 'forecast sessions not restored');
    return undefined;
  }
  if (lineNo === 0) return undefined;
  if (out.bad > WARNED_LINES) log.warn({ file, lines: out.bad - WARNED_LINES }, 'forecast session lines skipped besides those above');
  out.runs = [...runs.values()].sort((a, b) => a.n - b.n);
  return out;
}

/** A line (or a whole file) as JSON checked by `schema`, or why not. */
export function parseLine<T>(text: string, schema: z.ZodType<T>): { value: T } | { why: string } {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    return { why: `not JSON: ${(error as Error).message}` };
  }
  const got = schema.safeParse(json);
  return got.success ? { value: got.data } : { why: formatIssues(got.error) };
}

/** A scope's file as this server writes it (see the file comment). */
export class RunsLog {
  private queue: Promise<void> = Promise.resolve();
  /** Lines after the header, as written once the queue is done. */
  private lines: number;
  /** The file is not this server's (absent, another header, bad lines, a failed write): the next write replaces it. */
  private replace: boolean;
  private readonly header: string;

  constructor(
    readonly file: string,
    header: ForecastRunsHeader,
    private readonly log: Logger,
    read?: ReadRuns,
  ) {
    this.header = JSON.stringify(header);
    this.lines = read?.lines ?? 0;
    this.replace = read === undefined || read.bad > 0;
  }

  /** Records `lines`, the changes that made the scope's sessions `runs` (pending: kept after the last attempt); the file is rewritten instead when due. */
  record(lines: readonly string[], runs: readonly KeptRun[], pending: boolean): void {
    if (this.replace || this.lines + lines.length > 2 * runs.length + SLACK) {
      this.replace = false;
      this.lines = runs.length + (pending ? 0 : 1);
      const snapshot = runs.slice();
      this.enqueue(() => this.rewrite(snapshot, pending));
    } else {
      this.lines += lines.length;
      const text = lines.map((l) => `${l}\n`).join('');
      this.enqueue(() => appendFile(this.file, text));
    }
  }

  /** Resolves once every write recorded so far is done. */
  flush(): Promise<void> {
    return this.queue;
  }

  private enqueue(write: () => Promise<unknown>): void {
    this.queue = this.queue.then(write).then(
      () => undefined,
      (error: unknown) => {
        this.replace = true;
        this.log.warn({ err: error, file: this.file }, 'forecast sessions not saved: the next write rewrites the file');
      },
    );
  }

  private async rewrite(runs: readonly KeptRun[], pending: boolean): Promise<void> {
    const header = this.header;
    async function* text(): AsyncGenerator<string> {
      yield `${header}\n`;
      for (const r of runs) yield `${runLine(r)}\n`;
      if (!pending) yield `${TRIED_LINE}\n`;
    }
    await mkdir(path.dirname(this.file), { recursive: true });
    await writeFileAtomic(this.file, text());
  }
}
