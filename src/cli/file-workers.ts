/**
 * One command over many files on several threads, its output in input order (issue 24). The main thread scores
 * files itself and hands each worker its next run of files as soon as it has answered the last; a file's output
 * comes back as text and is written once every file before it is, so what the command prints is byte for byte what
 * one thread prints. A worker is the command's own module file started again (`entry`, its `import.meta.url`),
 * marked by an argument and its `workerData`; it rebuilds its setup from the same arguments, so nothing but file names and text
 * crosses between threads.
 */
import type { Worker } from 'node:worker_threads';
import { SteplensError } from '../errors.js';

// Loaded when used: most runs have one thread, and node:worker_threads brings ~5 more of Node's modules to a start
// (issue 24); a worker is told apart from the main thread by an argument of its own (WORKER_ARG).
const workerThreads = () => process.getBuiltinModule('node:worker_threads');
const nextTurn = () => process.getBuiltinModule('node:timers/promises').setImmediate();

/** What one file makes a command print, and its exit code. */
export interface FileOutput {
  stdout: string;
  stderr: string;
  code: number;
}

const MARK = 'steplens-cli-worker';
/** In a worker's process.argv (its `argv`), and never in the main thread's unless a user typed it. */
const WORKER_ARG = `--${MARK}`;

/**
 * The threads for `files` (the main thread and workers): `--jobs N`, `auto` (one per core), or by default 1, no
 * worker. Not `auto` by default: on this project's 2-core machines a second thread took reference-free `score` of
 * the 951 calibration files from 2.69 to 2.57 s for 27 % more CPU (bench/README.md, section "Reference-free
 * `score` without scope lookups, and `score --jobs`").
 */
export function jobCount(option: string | undefined, files: number): number {
  if (option === undefined) return 1;
  if (option === 'auto') return Math.max(1, Math.min(process.getBuiltinModule('node:os').availableParallelism(), files));
  const n = /^\d+$/.test(option) ? Number(option) : Number.NaN;
  if (!(n >= 1 && n <= 256)) throw new SteplensError('usage', `--jobs must be a whole number from 1 to 256, or auto (got '${option}')`);
  return Math.min(n, Math.max(1, files));
}

/** In a worker started by {@link runFilesInWorkers} for `command`: the data it was given; otherwise undefined. */
export function workerSetup<T>(command: string): T | undefined {
  if (!process.argv.includes(WORKER_ARG)) return undefined;
  const thread = workerThreads();
  const data = thread.workerData as { [MARK]?: string; data?: T } | null;
  return !thread.isMainThread && data?.[MARK] === command ? data.data : undefined;
}

/** In a worker: answers each file the main thread sends with `work(file)` (`work` should not throw). */
export function serveFiles(work: (file: string) => Promise<FileOutput>): void {
  const port = workerThreads().parentPort;
  if (port === null) return;
  port.on('message', (job: { i: number; file: string }) => {
    void work(job.file).then((out) => port.postMessage({ i: job.i, out }));
  });
  // Loaded and listening: from now on a death is the files' (they fail), not the start's (they go back).
  port.postMessage({ ready: true });
}

export interface WorkerRun<T> {
  /** The command's module URL (`import.meta.url`): a worker starts it again. */
  entry: string;
  command: string;
  /** What a worker rebuilds its setup from (structured-cloned). */
  data: T;
  files: readonly string[];
  jobs: number;
  write: (out: FileOutput) => void;
  /** A file's output, made on the main thread. */
  local: (file: string) => Promise<FileOutput>;
  /** The output of a file whose worker died on it. */
  failed: (file: string, why: string) => FileOutput;
}

/**
 * Files a thread takes at once: consecutive files are often runs of one task, whose views parse into the same trees,
 * and each thread's parse cache serves only it. Fewer towards the end, so that the threads finish together; and a
 * worker with a run of files in hand does not wait for the main thread, which answers between its own files.
 */
function chunkSize(left: number, threads: number): number {
  return Math.max(1, Math.min(16, Math.floor(left / (2 * threads))));
}

/**
 * Runs the files over `jobs` threads, the main thread one of them (`local`), the others workers; writes each file's
 * output in input order; resolves to the highest exit code, or undefined (nothing run) when workers cannot start
 * here: from the TypeScript sources (tests, `tsx`).
 */
export async function runFilesInWorkers<T>(run: WorkerRun<T>): Promise<number | undefined> {
  const n = run.files.length;
  if (!/\.c?js$/.test(run.entry) || run.jobs < 2 || n < 2) return undefined;
  const threads = Math.min(run.jobs, n);
  const outputs: Array<FileOutput | undefined> = new Array<FileOutput | undefined>(n);
  let written = 0;
  let sent = 0;
  let code = 0;
  const done = (i: number, out: FileOutput): void => {
    outputs[i] = out;
    code = Math.max(code, out.code);
    for (let o = outputs[written]; o !== undefined; o = outputs[written]) {
      run.write(o);
      outputs[written++] = undefined;
    }
  };
  const take = (): [number, number] => {
    const from = sent;
    sent = Math.min(n, sent + chunkSize(n - sent, threads));
    return [from, sent];
  };
  // Files of a worker that could not start (it answered nothing): the main thread scores them itself.
  const orphans: number[] = [];
  const startWorker = (): Promise<void> =>
    new Promise((resolve) => {
      let worker: Worker;
      try {
        worker = new (workerThreads().Worker)(new URL(run.entry), { argv: [WORKER_ARG], workerData: { [MARK]: run.command, data: run.data } });
      } catch {
        resolve();
        return;
      }
      // Files sent and not answered yet.
      const pending = new Set<number>();
      let ready = false;
      const next = (): void => {
        if (sent >= n) {
          void worker.terminate();
          return;
        }
        const [from, to] = take();
        for (let i = from; i < to; i++) {
          pending.add(i);
          worker.postMessage({ i, file: run.files[i] });
        }
      };
      worker.on('message', (m: { i: number; out: FileOutput } | { ready: true }) => {
        if ('ready' in m) {
          ready = true;
          return;
        }
        pending.delete(m.i);
        done(m.i, m.out);
        if (pending.size === 0) next();
      });
      let failedWhy: string | undefined;
      worker.on('error', (error) => {
        failedWhy = error instanceof Error ? error.message : String(error);
      });
      worker.on('exit', (exit) => {
        // A worker that died on its files fails them, each in its place; one that died before it was ready (its module
        // did not load) hands them back. The other threads take the files not yet sent either way.
        if (ready) for (const i of pending) done(i, run.failed(run.files[i]!, failedWhy ?? `its worker thread exited with code ${exit}`));
        else orphans.push(...pending);
        resolve();
      });
      next();
    });
  const workers = Array.from({ length: threads - 1 }, startWorker);
  const local = async (i: number): Promise<void> => {
    done(i, await run.local(run.files[i]!));
    // A turn of the event loop: the workers' answers come in, and their next files go out, between its own files.
    await nextTurn();
  };
  while (sent < n || orphans.length > 0) {
    if (orphans.length > 0) await local(orphans.shift()!);
    else {
      const [from, to] = take();
      for (let i = from; i < to; i++) await local(i);
    }
  }
  await Promise.all(workers);
  orphans.sort((a, b) => a - b);
  for (const i of orphans) await local(i);
  return code;
}
