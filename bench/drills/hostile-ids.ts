/**
 * Hostile ids drill: ids made to escape the data folder, collide with file names, break encodings or name
 * prototype members, on every route that takes a task or session id (HTTP paths and bodies, WebSocket
 * messages). Every answer must be a success or a catalogue error (never 500 or `internal`); nothing may be
 * written outside the data folder; what is written inside must be valid PTA files.
 */
import { cp, mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ERROR_CODES } from '../../src/errors.js';
import { serverMessageSchema } from '../../src/protocol/server-messages.js';
import { LOCK_NAME } from '../../src/store/data-lock.js';
import { ReferenceStore } from '../../src/store/reference-store.js';
import { DrillClient } from './ws-client.js';

export const HOSTILE_IDS: string[] = [
  '../etc/passwd',
  '..',
  '.',
  '/',
  '/etc/passwd',
  'a/../../b',
  '..\\..\\windows',
  '%2e%2e%2f',
  '%2F',
  '..%2F..%2F',
  'C:\\Windows',
  'con',
  'NUL',
  'aux.json',
  'x.json',
  '.json',
  'x.tmp',
  '.x.json.1.abc.tmp',
  '.hidden',
  '~',
  `a~${'0'.repeat(32)}`,
  'x.json.unreadable-20260101T000000Z',
  '\0',
  'a\0b',
  '\n',
  ' ',
  '\t',
  'a b',
  'é',
  '日本語',
  '🙂',
  '\u202eevil',
  'a\ud800',
  '\udc00',
  'a'.repeat(256),
  'a'.repeat(257),
  'é'.repeat(256),
  '🙂'.repeat(128),
  '🙂'.repeat(129),
  '%'.repeat(256),
  '__proto__',
  'constructor',
  'prototype',
  'toString',
  'hasOwnProperty',
  '$(rm -rf /)',
  '`id`',
  '; ls',
  '<script>',
  "' OR 1=1 --",
  '{}',
  '[]',
  'null',
  '%00',
  '%',
  '%%',
  '?a=b',
  '#x',
  '*',
  '',
];

export interface HostileOptions {
  http: string;
  ws: string;
  dataDir: string;
  /** A trajectory document (bodies that need one). */
  doc: unknown;
  headers?: Record<string, string>;
}

export interface HostileResult {
  ids: number;
  requests: number;
  /** Answers by status (HTTP) or type/code (WebSocket). */
  answers: Record<string, number>;
  problems: string[];
  /** Entries that appeared beside the data folder (must be none). */
  outside: string[];
  /** Files in the data folder afterwards, and warnings when a store opens it again (must be none). */
  files: number;
  reopenWarnings: string[];
}

export async function runHostileIds(o: HostileOptions): Promise<HostileResult> {
  const parent = path.dirname(o.dataDir);
  const before = new Set(await readdir(parent));
  const result: HostileResult = { ids: HOSTILE_IDS.length, requests: 0, answers: {}, problems: [], outside: [], files: 0, reopenWarnings: [] };
  const count = (key: string): void => void (result.answers[key] = (result.answers[key] ?? 0) + 1);
  const headers = { 'content-type': 'application/json', ...o.headers };

  const check = async (what: string, res: Response): Promise<void> => {
    result.requests++;
    count(`HTTP ${res.status}`);
    const text = await res.text();
    if (res.status >= 500) result.problems.push(`${what}: ${res.status} ${text.slice(0, 200)}`);
    if (res.status >= 400) {
      let body: { error?: { code?: string; message?: string } } = {};
      try {
        body = JSON.parse(text) as typeof body;
      } catch {
        // reported below
      }
      const code = body.error?.code as keyof typeof ERROR_CODES | undefined;
      if (code === undefined || !(code in ERROR_CODES) || ERROR_CODES[code].status !== res.status || typeof body.error?.message !== 'string') {
        result.problems.push(`${what}: not a catalogue error: ${res.status} ${text.slice(0, 200)}`);
      }
      if (text.includes(o.dataDir)) result.problems.push(`${what}: the answer shows the data folder`);
    }
  };
  const get = (route: string): Promise<Response> => fetch(`${o.http}${route}`, { headers: o.headers ?? {} });
  const post = (route: string, body: unknown): Promise<Response> => fetch(`${o.http}${route}`, { method: 'POST', headers, body: JSON.stringify(body) });

  const c = await DrillClient.connect(o.ws, o.headers ?? {});
  for (const id of HOSTILE_IDS) {
    const enc = encodeURIComponent(id.replace(/[\ud800-\udfff]/g, '\ufffd'));
    const raw = id.replace(/[\s#?%\ud800-\udfff]/g, '_');
    for (const route of [`/v1/tasks/${enc}/pta`, `/v1/sessions/${enc}`, `/v1/tasks/${raw}/pta`, `/v1/sessions/${raw}`, `/v1/tasks/${encodeURIComponent(enc)}/pta`]) {
      await check(`GET ${route}`, await get(route));
    }
    await check(`POST references ${JSON.stringify(id)}`, await post(`/v1/tasks/${enc}/references`, { trajectory: o.doc }));
    await check(`POST /v1/score ${JSON.stringify(id)}`, await post('/v1/score', { task: id, trajectory: o.doc }));
    await check(`POST /v1/score/batch ${JSON.stringify(id)}`, await post('/v1/score/batch', { items: [{ task: id, trajectory: o.doc }] }));
    await check(`POST /get_reward ${JSON.stringify(id)}`, await post('/get_reward', { query: [JSON.stringify(o.doc)], labels: [id] }));

    c.frames.length = 0;
    c.send({ type: 'start', session: id, task: id, learn: true });
    c.send({ type: 'start', task: id });
    c.send({ type: 'resume', session: id, after: -1 });
    c.send({ type: 'outcome', session: id, passed: true });
    c.send({ type: 'end', session: id });
    await c.sync();
    for (const f of c.frames) {
      result.requests++;
      count(f.type === 'error' ? `ws error:${String(f.code)}` : `ws ${f.type}`);
      if (!serverMessageSchema.safeParse(f).success) result.problems.push(`ws ${JSON.stringify(id)}: invalid answer ${JSON.stringify(f).slice(0, 200)}`);
      if (f.type === 'error' && f.code === 'internal') result.problems.push(`ws ${JSON.stringify(id)}: internal`);
    }
  }
  c.close();

  result.outside = (await readdir(parent)).filter((n) => !before.has(n) && path.join(parent, n) !== o.dataDir);
  result.files = (await readdir(o.dataDir)).filter((n) => n !== LOCK_NAME).length;
  // The server still holds the folder (one server per data folder): a copy of it is opened, as a restart would.
  const copy = await mkdtemp(path.join(tmpdir(), 'steplens-hostile-reopen-'));
  try {
    await cp(o.dataDir, copy, { recursive: true, filter: (from) => path.basename(from) !== LOCK_NAME });
    const reopened = await ReferenceStore.open({ dataDir: copy, warn: (m) => result.reopenWarnings.push(m) });
    await reopened.close();
  } finally {
    await rm(copy, { recursive: true, force: true });
  }
  return result;
}
