/** Test helpers: an app on 127.0.0.1:0 over a temp data dir, a ws client that queues frames, corpus fixtures. */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { connect as tcp } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import type { WebSocket } from 'ws';
import { afterAll, beforeAll } from 'vitest';
import { buildApp } from '../../src/server/app.js';
import type { AppOptions } from '../../src/server/options.js';
import type { TokenGrant } from '../../src/server/token-grants.js';
import { parseTrajectoryText, getParser } from '../../src/formats/index.js';
import type { Step } from '../../src/core/types.js';
import { CORPUS_DIR } from '../fixtures/corpus.js';

export const CORPUS = CORPUS_DIR;

/** The three real pylint-dev__astroid-1196 runs (mini-swe-agent 1.1, deepseek-chat). */
export const ASTROID = {
  task: 'pylint-dev__astroid-1196',
  passA: `${CORPUS}/SWE-agent__mini-swe-agent__pull-refs/output/deepseek_chat_dev/pylint-dev__astroid-1196/pylint-dev__astroid-1196.traj.json`,
  passB: `${CORPUS}/SWE-agent__mini-swe-agent__pull-refs/output/deepseek_chat_dev_rerun/pylint-dev__astroid-1196/pylint-dev__astroid-1196.traj.json`,
  fail: `${CORPUS}/SWE-agent__mini-swe-agent__pull-refs/output/deepseek_lite_dev_noparallel/pylint-dev__astroid-1196/pylint-dev__astroid-1196.traj.json`,
};

export async function readDoc(file: string): Promise<unknown> {
  return JSON.parse(await readFile(file, 'utf8')) as unknown;
}

export async function readSteps(file: string): Promise<Step[]> {
  const r = parseTrajectoryText(await readFile(file, 'utf8'), 'auto', file);
  if (!r.ok) throw r.error;
  return r.value.steps;
}

/** The raw events a live mini-swe-agent client would stream for a file. */
export async function readEvents(file: string): Promise<unknown[]> {
  return getParser('mini-swe-agent').events(await readDoc(file));
}

/**
 * Sends `request` as written on a raw socket to the server at `url` (headers fetch would not send: a Host of our
 * choosing, a malformed handshake) and reads until the server closes: the status, head and body of its answer.
 */
export function rawHttp(url: string, request: string): Promise<{ status: number; head: string; body: string }> {
  const { port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = tcp(Number(port), '127.0.0.1');
    let text = '';
    socket.on('data', (d) => (text += d.toString()));
    socket.on('error', reject);
    socket.on('close', () => {
      const [head = '', body = ''] = text.split('\r\n\r\n');
      resolve({ status: Number(head.split(' ')[1]), head, body });
    });
    socket.write(request);
  });
}

export async function tempDir(): Promise<string> {
  return mkdtemp(path.join(os.tmpdir(), 'steplens-server-'));
}

export async function removeDir(dir: string): Promise<void> {
  await rm(dir, { recursive: true, force: true });
}

export interface Running {
  app: FastifyInstance;
  url: string;
  wsUrl: string;
}

export async function startApp(options: AppOptions): Promise<Running> {
  const app = await buildApp({ logLevel: 'silent', ...options });
  const address = await app.listen({ host: '127.0.0.1', port: 0 });
  return { app, url: address, wsUrl: `${address.replace(/^http/, 'ws')}/v1/stream` };
}

/** Destroys raw sockets a test held open, then closes its servers (their own connections cut, not waited for). */
export async function closeRunning(running: readonly Running[], sockets: ReadonlyArray<{ destroy(): void }> = []): Promise<void> {
  for (const s of sockets) s.destroy();
  for (const r of running) {
    const closing = r.app.close();
    r.app.server.closeAllConnections();
    await closing;
  }
}

/** A ws client that queues frames and lets a test await the next matching one (the drills' client). */
export { DrillClient as Client, type Frame } from '../../bench/drills/ws-client.js';

/**
 * Registers beforeAll/afterAll hooks that run one app over a fresh temp data
 * dir for the test file; returns a getter for it.
 */
export function useApp(options: AppOptions = {}): () => Running {
  return useAppAndDir(options).app;
}

/** {@link useApp} that also names the app's data folder, for a test that reads what the server wrote there. */
export function useAppAndDir(options: AppOptions = {}): { app: () => Running; dir: () => string } {
  let dir: string | undefined;
  let srv: Running | undefined;
  beforeAll(async () => {
    dir = await tempDir();
    srv = await startApp({ dataDir: dir, ...options });
  });
  afterAll(async () => {
    await srv?.app.close();
    if (dir !== undefined) await removeDir(dir);
  });
  return {
    app: () => {
      if (srv === undefined) throw new Error('useApp: the app is not started yet (call inside a test)');
      return srv;
    },
    dir: () => {
      if (dir === undefined) throw new Error('useApp: no data folder yet (call inside a test)');
      return dir;
    },
  };
}

/**
 * Several apps in one test file, each over its own folder of one temp dir (`name`): `start` runs one (closed after
 * all the file's tests, then the dir removed), `dir` names its data folder.
 */
export function useApps(): { start(name: string, options?: AppOptions): Promise<Running>; dir(name: string): string } {
  let root: string | undefined;
  const running: Running[] = [];
  beforeAll(async () => {
    root = await tempDir();
  });
  afterAll(async () => {
    for (const r of running) await r.app.close();
    if (root !== undefined) await removeDir(root);
  });
  const dir = (name: string): string => {
    if (root === undefined) throw new Error('useApps: no temp dir yet (call inside a test)');
    return path.join(root, name);
  };
  return {
    dir,
    async start(name, options = {}) {
      const r = await startApp({ dataDir: dir(name), ...options });
      running.push(r);
      return r;
    },
  };
}

/**
 * Like {@link useApp} without a listening socket: for HTTP-only tests, which go through
 * `app.inject` (fastify's in-process request, no port, no fetch).
 */
export function useInjectApp(options: AppOptions = {}): () => FastifyInstance {
  let dir: string | undefined;
  let app: FastifyInstance | undefined;
  beforeAll(async () => {
    dir = await tempDir();
    app = await buildApp({ logLevel: 'silent', dataDir: dir, ...options });
    await app.ready();
  });
  afterAll(async () => {
    await app?.close();
    if (dir !== undefined) await removeDir(dir);
  });
  return () => {
    if (app === undefined) throw new Error('useInjectApp: the app is not built yet (call inside a test)');
    return app;
  };
}

/** Headers with `token` as the bearer (a WebSocket upgrade, a GET). */
export const bearer = (token: string): Record<string, string> => ({ authorization: `Bearer ${token}` });

/** Headers of a JSON request with `token` as its bearer. */
export const bearerJson = (token: string): Record<string, string> => ({ ...bearer(token), 'content-type': 'application/json' });

/**
 * A token file's grants: one agent token per tenant, named after it, and with `operatorToken` an operator of
 * tenant `ops`.
 */
export function tenantTokens(tenants: readonly string[], operatorToken?: string): TokenGrant[] {
  const agents = tenants.map((tenant) => ({ token: tenant, tenant }));
  return operatorToken === undefined ? agents : [...agents, { token: operatorToken, tenant: 'ops', role: 'operator' }];
}

/** Two agent tenants and an operator: a token file's grants (each token named after its tenant). */
export const ALICE_BOB_OPS = tenantTokens(['alice', 'bob'], 'op');

/**
 * A socket that is open (a test may set `readyState` 3 to close it), pushes each frame it is sent, parsed, onto `sent`
 * (without one it drops them) and keeps whether its reads are paused, as ws does (`isPaused`): a Connection without a
 * network.
 */
export function recordingSocket<T = Record<string, unknown>>(sent?: T[]): WebSocket {
  const socket = {
    readyState: 1,
    OPEN: 1,
    bufferedAmount: 0,
    isPaused: false,
    send: (data: Buffer | string): void => void sent?.push(JSON.parse(data.toString()) as T),
    pause: (): void => void (socket.isPaused = true),
    resume: (): void => void (socket.isPaused = false),
    close: () => undefined,
    terminate: () => undefined,
    once: () => undefined,
    on: () => undefined,
  };
  return socket as unknown as WebSocket;
}
