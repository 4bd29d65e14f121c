/**
 * `npm start` on another port, as the README says: `npm start -- --port P` (npm appends what follows `--`
 * to the start script, so it must end with the server entry) and `STEPLENS_PORT=P npm start`. The script's
 * build step is left out (the test runs after a build); its last command runs as npm would run it (`sh -c`).
 * It `exec`s the server: npm hands a SIGTERM (a supervisor's, `timeout`'s) to that shell alone, and a shell that
 * forked the server died of it and left the server running, listening, with init as its parent.
 * Needs `npm run build`.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort } from '../../bench/redis-server.js';
import { packageRoot } from '../../src/package-files.js';

const ROOT = packageRoot();
const start = (JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts.start!;
/** The command npm's trailing arguments are appended to. */
const serverCommand = start.split('&&').pop()!.trim();
const data = mkdtempSync(path.join(tmpdir(), 'steplens-start-'));
const children: ChildProcess[] = [];
afterAll(() => {
  for (const c of children) signalGroup(c, 'SIGKILL');
  rmSync(data, { recursive: true, force: true });
});

/** Signals the child's whole process group (it leads one: `detached`), so no server outlives the test. */
function signalGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  try {
    process.kill(-child.pid!, signal);
  } catch {
    // the group is gone already
  }
}

/** Runs the start script's server command with npm's appended `extra`, returns once /healthz answers on `port`. */
async function startOn(port: number, extra: string, env: Record<string, string> = {}): Promise<ChildProcess> {
  // Signals go to the shell alone, as npm forwards them (the group is killed only after the suite).
  const child = spawn('sh', ['-c', `${serverCommand} --data "$0" --no-seed --log-level silent ${extra}`, data], {
    cwd: ROOT,
    env: { ...process.env, ...env },
    stdio: 'ignore',
    detached: true,
  });
  children.push(child);
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`the server exited with ${child.exitCode}`);
    const ok = await fetch(`http://127.0.0.1:${port}/healthz`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) return child;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`nothing answered on port ${port}`);
}

/**
 * Stops the server with SIGTERM to the shell npm ran (`twice`: SIGINT to the whole group, then again, as Ctrl-C under
 * npm delivers it from the terminal and from npm) and checks that its port is closed (the server itself exited, not
 * only a shell) and that it released the data folder's lock (it shut down, not died of the second signal midway).
 */
async function stop(child: ChildProcess, port: number, twice = false): Promise<void> {
  const exited = new Promise((resolve) => child.on('exit', resolve));
  if (twice) {
    signalGroup(child, 'SIGINT');
    // Apart, as npm's copy comes after the terminal's: two signals at once are delivered as one.
    await new Promise((r) => setTimeout(r, 2));
    signalGroup(child, 'SIGINT');
  } else child.kill('SIGTERM');
  await exited;
  // A second signal that lands after the shutdown, while Node tears the process down, may still end it by that
  // signal: the shutdown was done, as the released lock shows.
  if (!twice) expect(child.exitCode).toBe(0);
  expect(existsSync(path.join(data, '.steplens.lock'))).toBe(false);
  const closed = await fetch(`http://127.0.0.1:${port}/healthz`).then(
    () => false,
    () => true,
  );
  expect(closed).toBe(true);
}

describe('npm start on another port', () => {
  it('the start script ends with the server entry, so `npm start -- --port P` reaches it', () => {
    expect(serverCommand).toBe('exec node dist/bin/steplens.js serve');
  });

  it('--port P (npm start -- --port P) and STEPLENS_PORT=P both move it', async () => {
    const a = await freePort();
    await stop(await startOn(a, `--port ${a}`), a);
    const b = await freePort();
    await stop(await startOn(b, '', { STEPLENS_PORT: String(b) }), b, true);
  }, 150_000);
});
