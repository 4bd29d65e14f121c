/**
 * One server per data folder: two processes writing one folder each grow PTAs from their own cached copy and
 * rename over the other's file, so acknowledged references are lost. The holder keeps `.steplens.lock` (its pid
 * and host) fresh; a lock whose holder is gone (same host, pid not running) or that has not been refreshed for
 * {@link STALE_MS} (a crash on another host sharing the folder) is taken over.
 */
import { hostname } from 'node:os';
import path from 'node:path';
import { readFile, rm, stat, utimes, writeFile } from 'node:fs/promises';
import { SteplensError } from '../errors.js';

export const LOCK_NAME = '.steplens.lock';
const REFRESH_MS = 10_000;
const STALE_MS = 30_000;

interface Holder {
  pid: number;
  host: string;
}

/** A held lock: `release` removes it (only if it is still ours). */
export interface DataLock {
  release(): Promise<void>;
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

async function readHolder(file: string): Promise<{ holder: Holder | undefined; ageMs: number } | undefined> {
  try {
    const [text, info] = await Promise.all([readFile(file, 'utf8'), stat(file)]);
    let holder: Holder | undefined;
    try {
      const parsed = JSON.parse(text) as Partial<Holder>;
      if (typeof parsed.pid === 'number' && typeof parsed.host === 'string') holder = { pid: parsed.pid, host: parsed.host };
    } catch {
      holder = undefined; // a lock cut short by a crash mid-write: nobody can be holding it
    }
    return { holder, ageMs: Date.now() - info.mtimeMs };
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

/** Takes the lock of `dir`, or throws `bad_input` naming the process that holds it. */
export async function lockDataDir(dir: string): Promise<DataLock> {
  const file = path.join(dir, LOCK_NAME);
  const me: Holder = { pid: process.pid, host: hostname() };
  for (let attempt = 0; ; attempt++) {
    try {
      await writeFile(file, JSON.stringify(me), { flag: 'wx' });
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST' || attempt > 0) throw inUse(dir, file, await readHolder(file));
    }
    const found = await readHolder(file);
    const gone = found?.holder === undefined || found.ageMs > STALE_MS || (found.holder.host === me.host && !alive(found.holder.pid));
    if (!gone) throw inUse(dir, file, found);
    await rm(file, { force: true });
  }
  const timer = setInterval(() => {
    const now = new Date();
    utimes(file, now, now).catch(() => undefined);
  }, REFRESH_MS);
  timer.unref();
  return {
    async release() {
      clearInterval(timer);
      const found = await readHolder(file).catch(() => undefined);
      if (found?.holder?.pid === me.pid && found.holder.host === me.host) await rm(file, { force: true });
    },
  };
}

function inUse(dir: string, file: string, found: Awaited<ReturnType<typeof readHolder>>): SteplensError {
  const who = found?.holder ? `process ${found.holder.pid} on ${found.holder.host}` : 'another process';
  return new SteplensError(
    'bad_input',
    `data folder ${dir} is in use by ${who} (${file}): one server per data folder, else references are lost; stop it, or remove the lock file if that process is gone`,
  );
}
