/**
 * A folder and the folders above it, made one at a time. Node 20's `mkdir(dir, { recursive: true })` never returns
 * (sync: blocks the process; async: spins a pool thread) when mkdir answers ENOENT under a folder that exists, as
 * /proc and /sys do: it makes the parent again and retries, forever. `serve --data /proc/x` hung so. Here the
 * missing folders are found first (by stat, upward) and made top down, each once: every failure is an error.
 */
import { mkdirSync, statSync, type Stats } from 'node:fs';
import { dirname, resolve } from 'node:path';

function errno(code: string, message: string, path: string): NodeJS.ErrnoException {
  return Object.assign(new Error(`${code}: ${message}, mkdir '${path}'`), { code, path, syscall: 'mkdir' });
}

/**
 * `at` is there: a folder, or an error as mkdir's own: a file at `target` itself is EEXIST, a file above it ENOTDIR
 * (Node 24's statSync answers undefined under a file where Node 20's threw ENOTDIR: the same error on both).
 */
function existing(at: string, found: Stats, target: string): true {
  if (found.isDirectory()) return true;
  if (at === target) throw errno('EEXIST', 'file already exists', at);
  throw errno('ENOTDIR', 'not a directory', target);
}

/** mkdir's error for one folder of the chain; ENOENT under a folder that exists said in words. */
function madeError(error: unknown, dir: string): unknown {
  const code = (error as NodeJS.ErrnoException).code;
  if (code !== 'ENOENT') return error;
  return Object.assign(new Error(`${dirname(dir)} takes no new folders (mkdir ${dir}: ENOENT)`), { code, path: dir, syscall: 'mkdir' });
}

/** Makes `dir` and each missing folder above it (an existing folder is fine); throws as mkdir does. */
export function makeDirsSync(dir: string): void {
  const missing: string[] = [];
  const target = resolve(dir);
  for (let at = target; ; at = dirname(at)) {
    const found = statSync(at, { throwIfNoEntry: false });
    if (found !== undefined && existing(at, found, target)) break;
    missing.push(at);
    if (dirname(at) === at) break;
  }
  for (const d of missing.reverse()) {
    try {
      mkdirSync(d);
    } catch (error) {
      // Made meanwhile by another process: fine when it is a folder.
      if ((error as NodeJS.ErrnoException).code === 'EEXIST' && statSync(d).isDirectory()) continue;
      throw madeError(error, d);
    }
  }
}

/**
 * {@link makeDirsSync} for async callers (the data folder at start, a command's output file): a few stat and mkdir
 * calls, once each, so one walk serves both rather than a second copy written with promises.
 */
export async function makeDirs(dir: string): Promise<void> {
  makeDirsSync(dir);
}
