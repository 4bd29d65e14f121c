/**
 * T90: what a session learns follows the role of the token that started it, so a token may resume a session only when
 * its role can do all the starter's could. Before, an agent token of the operator's tenant (it lists that tenant's
 * sessions) resumed the operator's open `learn` session, streamed steps of its own, reported it passed and ended it:
 * its steps grew the shared PTA every tenant is scored against, past the bounds an agent is held to. Now its resume is
 * refused `forbidden` (file store and Redis, where the lease stays where it was), and the operator's run goes on.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TokenGrant } from '../../src/server/token-grants.js';
import { bundledReferencesDir } from '../../src/package-files.js';
import { ASTROID, Client, readEvents, removeDir, startApp, tempDir, type Running } from './helpers.js';
import { RedisServer } from '../redis/redis-server.js';
import { freshPrefix, startReplica } from '../redis/replicas.js';

const TOKENS: TokenGrant[] = [
  { token: 'op', tenant: 'platform', role: 'operator' },
  { token: 'platform-agent', tenant: 'platform' },
  { token: 'team-a', tenant: 'team-a' },
];
const as = (token: string): Record<string, string> => ({ authorization: `Bearer ${token}` });
const TASK = ASTROID.task;
let passing: unknown[];
let failing: unknown[];
let redis: RedisServer;
const running: Running[] = [];
const clients: Client[] = [];
let dir: string;

beforeAll(async () => {
  [passing, failing] = await Promise.all([readEvents(ASTROID.passA), readEvents(ASTROID.fail)]);
  redis = await RedisServer.start();
  dir = await tempDir();
});

afterAll(async () => {
  for (const c of clients) c.ws.terminate();
  for (const r of running) await r.app.close();
  await redis?.destroy();
  await removeDir(dir);
});

/** The shared PTA of the task as another tenant reads it. */
async function sharedPta(url: string): Promise<{ version: number; references: number }> {
  const pta = (await (await fetch(`${url}/v1/tasks/${TASK}/pta`, { headers: as('team-a') })).json()) as { version: number; references: unknown[] };
  return { version: pta.version, references: pta.references.length };
}

async function connect(url: string, token: string): Promise<Client> {
  const c = await Client.connect(url, as(token));
  clients.push(c);
  return c;
}

/** The operator starts a learn session on `first` and streams 5 steps; the platform's agent token resumes it on `second`. */
async function attempt(first: Running, second: Running, id: string): Promise<void> {
  const before = await sharedPta(first.url);
  const op = await connect(first.wsUrl, 'op');
  op.send({ type: 'start', session: id, task: TASK, format: 'mini-swe-agent', agent: 'ref-agent', model: 'ref-model', learn: true });
  await op.nextOf('started', id);
  for (let seq = 0; seq < 5; seq++) op.send({ type: 'step', session: id, seq, step: passing[seq] });
  await op.sync();

  // The agent token sees its tenant's sessions (the replica holding them lists them), the operator's among them...
  const listed = (await (await fetch(`${first.url}/v1/sessions`, { headers: as('platform-agent') })).json()) as { sessions: Array<{ session: string }> };
  expect(listed.sessions.map((s) => s.session)).toContain(id);
  // ...but may not take the operator's over (old code: resumed, then its junk steps, outcome and end grew the shared PTA).
  const agent = await connect(second.wsUrl, 'platform-agent');
  agent.send({ type: 'resume', session: id, after: -1 });
  expect(await agent.next((f) => f.session === id && (f.type === 'error' || f.type === 'resumed'))).toMatchObject({ type: 'error', code: 'forbidden', session: id });
  failing.slice(5).forEach((step, i) => agent.send({ type: 'step', session: id, seq: 5 + i, step }));
  agent.send({ type: 'outcome', session: id, passed: true });
  agent.send({ type: 'end', session: id });
  await agent.sync();
  expect(agent.frames.some((f) => f.type === 'final' || f.type === 'resumed')).toBe(false);
  expect(await sharedPta(second.url)).toEqual(before);

  // The operator's session is still its own, where it was (with Redis: the lease was not taken from it).
  op.send({ type: 'step', session: id, seq: 5, step: passing[5] });
  op.send({ type: 'outcome', session: id, passed: true });
  op.send({ type: 'end', session: id });
  const final = await op.nextOf('final', id);
  expect(final.learned).toEqual({ version: before.version + 1, scope: 'shared' });
  expect(await sharedPta(second.url)).toEqual({ version: before.version + 1, references: before.references + 1 });
}

describe('an agent token resuming its tenant operator’s learn session', () => {
  it('file store: refused forbidden, the shared PTA unchanged by it', async () => {
    const app = await startApp({ dataDir: dir, seedDirs: [bundledReferencesDir()], tokens: TOKENS });
    running.push(app);
    await attempt(app, app, 'op-run-file');
    // An operator's token may still resume an agent's session (it keeps the agent's role: nothing more is learned).
    const agent = await connect(app.wsUrl, 'platform-agent');
    agent.send({ type: 'start', session: 'agent-run', task: TASK, format: 'mini-swe-agent' });
    await agent.nextOf('started', 'agent-run');
    const op = await connect(app.wsUrl, 'op');
    op.send({ type: 'resume', session: 'agent-run', after: -1 });
    expect(await op.nextOf('resumed', 'agent-run')).toMatchObject({ last: -1 });
  });

  it('Redis, the other replica: refused forbidden, the lease left with the operator', async () => {
    const prefix = freshPrefix('op-resume');
    const one = await startReplica(redis, prefix, 'replica-1', { tokens: TOKENS });
    const two = await startReplica(redis, prefix, 'replica-2', { tokens: TOKENS });
    running.push(one, two);
    await attempt(one, two, 'op-run-redis');
  });
});
