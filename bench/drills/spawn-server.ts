/** The server as users run it (`node dist/src/server/server.js`), in its own process, for the drills that kill it. */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export interface SpawnedServer {
  http: string;
  ws: string;
  proc: ChildProcess;
  /** Log lines at warn level or above, as logged. */
  warnings: string[];
  exited: Promise<number | null>;
}

/** dist/src/server/server.js of this checkout (built by `npm run build`). */
export function serverEntry(): string {
  const here = path.dirname(fileURLToPath(import.meta.url));
  const root = here.includes(`${path.sep}dist${path.sep}`) ? path.resolve(here, '../../..') : path.resolve(here, '../..');
  const entry = path.join(root, 'dist/src/server/server.js');
  if (!existsSync(entry)) throw new Error(`${entry} is missing: run npm run build first`);
  return entry;
}

/**
 * Starts the server on 127.0.0.1:0 with `args` (e.g. `--data DIR`; the log level must stay at info or below: the listening line is read) and resolves once it listens.
 * `fdLimit`: the process' soft limit of open files (`ulimit -n`, as an operator's systemd unit or container sets it).
 */
export function spawnServer(args: string[], options: { fdLimit?: number } = {}): Promise<SpawnedServer> {
  // STEPLENS_DRILL_NODE_ARGS: Node options for the server process, e.g. `--cpu-prof --cpu-prof-dir=DIR` to profile it.
  const nodeArgs = (process.env.STEPLENS_DRILL_NODE_ARGS ?? '').split(' ').filter((a) => a !== '');
  const argv = [...nodeArgs, serverEntry(), '--host', '127.0.0.1', '--port', '0', ...args];
  const proc =
    options.fdLimit === undefined
      ? spawn(process.execPath, argv, { stdio: ['ignore', 'pipe', 'pipe'] })
      : spawn('/bin/sh', ['-c', `ulimit -n ${options.fdLimit} && exec "$0" "$@"`, process.execPath, ...argv], { stdio: ['ignore', 'pipe', 'pipe'] });
  const warnings: string[] = [];
  const exited = new Promise<number | null>((resolve) => proc.once('exit', (code) => resolve(code)));
  return new Promise((resolve, reject) => {
    let buffer = '';
    proc.stdout?.on('data', (d: Buffer) => {
      buffer += d.toString();
      let nl: number;
      while ((nl = buffer.indexOf('\n')) >= 0) {
        const line = buffer.slice(0, nl);
        buffer = buffer.slice(nl + 1);
        let entry: { level?: number; msg?: string; address?: string };
        try {
          entry = JSON.parse(line) as typeof entry;
        } catch {
          continue;
        }
        if ((entry.level ?? 0) >= 40 && !(entry.msg ?? '').includes('authentication is off')) warnings.push(entry.msg ?? line);
        if (entry.msg === 'steplens server listening' && entry.address) {
          resolve({ http: entry.address, ws: `${entry.address.replace(/^http/, 'ws')}/v1/stream`, proc, warnings, exited });
        }
      }
    });
    proc.stderr?.on('data', (d: Buffer) => warnings.push(d.toString()));
    void exited.then((code) => reject(new Error(`server exited (${code}) before listening: ${warnings.join(' ')}`)));
  });
}
