/**
 * A real `redis-server` for the benches and tests (Debian's package; .ci/run
 * installs it): a free port on 127.0.0.1, its own temp directory, the
 * append-only file on (fsync every second by default: Redis usually writes it
 * before answering, but while a background fsync is slow, a busy disk, it
 * postpones the write up to 2 s and answers anyway, so a SIGKILL can lose the
 * last acknowledged writes; `always` writes and fsyncs before every answer, what
 * tests that kill Redis and count on its data use), and kill/restart on the
 * same port and directory.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

const CANDIDATES = [process.env.REDIS_SERVER, '/usr/bin/redis-server', '/usr/local/bin/redis-server'];

/** The redis-server binary, or an error saying how to get one. */
export function redisServerBinary(): string {
  for (const c of CANDIDATES) if (c && existsSync(c)) return c;
  const which = spawnSync('which', ['redis-server'], { encoding: 'utf8' });
  if (which.status === 0 && which.stdout.trim() !== '') return which.stdout.trim();
  throw new Error('redis-server not found: these tests need a real Redis (apt-get install redis-server, or set REDIS_SERVER)');
}

/** A free TCP port on 127.0.0.1 (free when asked; Redis takes it right after). */
export async function freePort(): Promise<number> {
  const srv = net.createServer();
  await new Promise<void>((resolve) => srv.listen(0, '127.0.0.1', resolve));
  const { port } = srv.address() as net.AddressInfo;
  await new Promise((resolve) => srv.close(resolve));
  return port;
}

async function answersPing(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const sock = net.connect(port, '127.0.0.1');
    let data = '';
    const done = (ok: boolean): void => {
      sock.destroy();
      resolve(ok);
    };
    sock.setTimeout(500, () => done(false));
    sock.once('error', () => done(false));
    sock.on('data', (d) => {
      data += String(d);
      if (data.includes('\r\n')) done(data.startsWith('+PONG'));
    });
    sock.once('connect', () => sock.write('PING\r\n'));
  });
}

/** When Redis fsyncs its append-only file: `always` (before answering), `everysec`, or `off` (no append-only file). */
export type RedisFsync = 'always' | 'everysec' | 'off';

/** Whether a `--fsync` value is one redis-server's appendfsync takes. */
export const isFsync = (x: string | undefined): x is RedisFsync => x === 'always' || x === 'everysec' || x === 'off';

export class RedisServer {
  private proc: ChildProcess | undefined;
  private constructor(
    readonly port: number,
    readonly dir: string,
    readonly fsync: RedisFsync,
  ) {}

  get url(): string {
    return `redis://127.0.0.1:${this.port}`;
  }

  get pid(): number | undefined {
    return this.proc?.pid;
  }

  /** Starts a server on a free port in a fresh temp directory. */
  static async start(fsync: RedisFsync = 'everysec'): Promise<RedisServer> {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'steplens-redis-'));
    const server = new RedisServer(await freePort(), dir, fsync);
    await server.launch();
    return server;
  }

  /** (Re)starts the process on the same port and directory (the append-only file is replayed). */
  async launch(): Promise<void> {
    const args = [
      '--port',
      String(this.port),
      '--bind',
      '127.0.0.1',
      '--dir',
      this.dir,
      '--save',
      '',
      ...(this.fsync === 'off' ? ['--appendonly', 'no'] : ['--appendonly', 'yes', '--appendfsync', this.fsync]),
      '--protected-mode',
      'no',
      '--loglevel',
      'warning',
    ];
    const proc = spawn(redisServerBinary(), args, { stdio: ['ignore', 'ignore', 'inherit'] });
    this.proc = proc;
    const deadline = Date.now() + 10_000;
    while (Date.now() < deadline) {
      if (proc.exitCode !== null) throw new Error(`redis-server exited with ${proc.exitCode} (port ${this.port})`);
      if (await answersPing(this.port)) return;
      await new Promise((r) => setTimeout(r, 25));
    }
    throw new Error(`redis-server did not answer on port ${this.port} within 10 s`);
  }

  /** Stops the process with `signal` (SIGKILL: a crash) and waits for it to exit. */
  async stop(signal: NodeJS.Signals = 'SIGTERM'): Promise<void> {
    const proc = this.proc;
    this.proc = undefined;
    if (proc?.exitCode !== null || proc.signalCode !== null) return;
    const exited = new Promise((resolve) => proc.once('exit', resolve));
    proc.kill(signal);
    await exited;
  }

  /** Stops the server for good and removes its directory. */
  async destroy(): Promise<void> {
    await this.stop('SIGKILL');
    await rm(this.dir, { recursive: true, force: true });
  }
}
