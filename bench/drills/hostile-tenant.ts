/**
 * Hostile-tenant drill (issue 25's trial, repeated): a server in its own process with three tenants (victim,
 * mallory: agents; ops: operator) and shadow mode on. Mallory, with its own valid token, tries everything the
 * trial did against the victim: junk references and fake `learn` sessions on the victim's task (the victim's
 * score of its passing run before and after), pins and freezes on the victim's agent + model, fake shadow
 * outcomes (the victim's own run reported failing) to promote a stop, reads of the victim's sessions on every
 * route, taking every session slot, and live viewers that never read. Meanwhile a third connection pings.
 * Every answer must be a catalogue error or a bounded cost; `problems` lists what did not hold.
 */
import net from 'node:net';
import type { PoliciesStatus } from '../../src/server/policy-status.js';
import type { AppOptions } from '../../src/server/options.js';
import { startTarget, type TargetProcess } from '../server-process.js';
import { pingSummary, startPinger } from './pinger.js';
import { DrillClient, type Frame } from './ws-client.js';

export interface HostileTenantOptions {
  /** A task whose PTA is in use (the bundled pylint-dev__astroid-1196). */
  task: string;
  /** The victim's passing run: a JSON document (POST /v1/score) and its raw mini-swe-agent events (sessions). */
  victimDoc: unknown;
  victimEvents: unknown[];
  /** A real run of another task: mallory's junk (references, fake learn sessions, "passing" shadow runs). */
  junkDoc: unknown;
  junkEvents: unknown[];
  /**
   * The "passing" runs of the shadow attack (default: the junk). A short run with no long exploration streak,
   * so a stop that ends the victim's run but not these exists for the attacker to promote.
   */
  shadowPassEvents?: unknown[];
  /** Junk references and fake learn sessions mallory sends (the trial: 10 each). */
  references: number;
  learnSessions: number;
  /** Fake shadow outcomes: "passing" junk runs and the victim's run reported failing (the trial: 100 in all). */
  shadowPasses: number;
  shadowFails: number;
  /** Sessions of the victim's run each side streams after the shadow attack (the trial: 10). */
  checkSessions: number;
  /** Sessions per tenant (the server holds twice as many). */
  slots: number;
  /** Live viewers mallory opens and never reads (the trial: 64), while it streams this many sessions of its own. */
  stuckViewers: number;
  liveSessions: number;
  /** Shadow settings (CI: a loose bound, so fewer runs promote). */
  shadow?: AppOptions['shadow'];
}

export interface HostileTenantResult {
  victimScore: { before: string; afterReferences: string; afterLearn: string };
  referenceAnswers: Record<string, number>;
  learnAnswers: Record<string, number>;
  policyAnswers: Record<string, number>;
  /** The candidate mallory's own pair was promoted to, and its own sessions of the victim's run that were stopped. */
  malloryPromoted: string | null;
  malloryStopped: number;
  victimPromoted: string | null;
  victimStopped: number;
  readRequests: number;
  leaks: number;
  duplicateConfirmations: number;
  slotAnswers: Record<string, number>;
  victimRefusedAfterDisconnect: number;
  stuckViewersDropped: number;
  rssMB: { before: number; withViewers: number };
  /** Another client's pings per phase: max and p99 (ms); on a loaded machine they include the driver's own waits. */
  pings: Record<string, { max: number; p99: number; n: number }>;
  /** The server's own event-loop delay per phase, max (ms): how long the server itself held everyone. */
  loopMaxMs: Record<string, number>;
  problems: string[];
}

const TOKENS = [
  { token: 'victim-token', tenant: 'victim' },
  { token: 'mallory-token', tenant: 'mallory' },
  { token: 'ops-token', tenant: 'ops', role: 'operator' as const },
];
const auth = (token: string): Record<string, string> => ({ authorization: `Bearer ${token}` });
const WHO = { agent: 'mini-swe-agent 1.1', model: 'deepseek/deepseek-chat' };
const tally = (m: Record<string, number>, k: string): void => void (m[k] = (m[k] ?? 0) + 1);

async function post(http: string, route: string, token: string, body: unknown): Promise<{ status: number; code: string; body: Record<string, unknown> }> {
  const res = await fetch(`${http}${route}`, { method: 'POST', headers: { ...auth(token), 'content-type': 'application/json' }, body: JSON.stringify(body) });
  const doc = (await res.json()) as Record<string, unknown> & { error?: { code: string } };
  return { status: res.status, code: doc.error?.code ?? String(res.status), body: doc };
}

/** Streams one session of `events`; returns its stop signals and final. */
async function session(c: DrillClient, id: string, task: string, events: unknown[], start: Record<string, unknown>, passed?: boolean): Promise<{ stops: number; final: Frame }> {
  c.send({ type: 'start', session: id, task, format: 'mini-swe-agent', ...start });
  await c.nextOf('started', id, 60_000);
  events.forEach((step, seq) => c.send({ type: 'step', session: id, seq, step }));
  if (passed !== undefined) c.send({ type: 'outcome', session: id, passed });
  c.send({ type: 'end', session: id });
  const final = await c.nextOf('final', id, 120_000);
  const stops = c.frames.filter((f) => f.session === id && f.type === 'signal' && f.severity === 'stop').length;
  c.frames.splice(0, c.frames.length, ...c.frames.filter((f) => f.session !== id));
  return { stops, final };
}

/** Resolves once the server saw mallory's connection go: its `slots` sessions are detached (read by an operator). */
async function detached(http: string, slots: number): Promise<void> {
  for (let tries = 0; tries < 600; tries++) {
    let count = 0;
    let after: string | undefined;
    do {
      const res = await fetch(`${http}/v1/sessions?tenant=mallory&limit=1000${after !== undefined ? `&after=${after}` : ''}`, { headers: auth('ops-token') });
      const page = (await res.json()) as { sessions: Array<{ session: string; state: string }>; next?: string };
      count += page.sessions.filter((r) => r.session.startsWith('slot-') && r.state === 'detached').length;
      after = page.next;
    } while (after !== undefined);
    if (count >= slots) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error("the server never saw mallory's connection go");
}

/**
 * Starts `n` sessions of one tenant, 64 per connection (the per-connection limit), in order; the answers by
 * code (`started` for the opened ones) and the connections, still open.
 */
async function startMany(url: string, token: string, prefix: string, n: number, task: string): Promise<{ answers: Record<string, number>; clients: DrillClient[] }> {
  const answers: Record<string, number> = {};
  const clients: DrillClient[] = [];
  for (let i = 0; i < n; i++) {
    if (i % 64 === 0) clients.push(await DrillClient.connect(url, auth(token)));
    const c = clients[clients.length - 1]!; // one was pushed at i = 0
    c.send({ type: 'start', session: `${prefix}-${i}`, task });
    const f = await c.next((x) => x.session === `${prefix}-${i}` && (x.type === 'started' || x.type === 'error'), 60_000);
    tally(answers, f.type === 'started' ? 'started' : (f.code as string));
  }
  return { answers, clients };
}

/** A live viewer that never reads: a raw socket, paused once the request is written. */
function stuckViewer(http: string): Promise<net.Socket> {
  const url = new URL(http);
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(url.port), url.hostname, () => {
      socket.write(`GET /v1/live HTTP/1.1\r\nHost: ${url.host}\r\nAuthorization: Bearer mallory-token\r\n\r\n`);
      socket.pause();
      resolve(socket);
    });
    socket.on('error', reject);
  });
}

export async function runHostileTenant(o: HostileTenantOptions): Promise<HostileTenantResult> {
  const shadow = o.shadow ?? true;
  // Mallory's quota is more than the server has left beside it: the victim's sessions need mallory's detached ones.
  const limits = { sessionsPerTenant: o.slots, totalSessions: Math.floor(1.5 * o.slots) };
  const target: TargetProcess = await startTarget(
    'steplens',
    (process.env.STEPLENS_DRILL_NODE_ARGS ?? '').split(' ').filter((a) => a !== ''),
    { tokens: TOKENS, shadow, limits, resumeWindowMs: 600_000 },
  );
  const problems: string[] = [];
  const pings: HostileTenantResult['pings'] = {};
  const loopMaxMs: Record<string, number> = {};
  const pinger = await startPinger(target.url, auth('victim-token'));
  const phase = async (name: string): Promise<void> => {
    pings[name] = pingSummary(pinger.window());
    loopMaxMs[name] = Number((await target.loopDelay()).max.toFixed(1));
  };
  const { http } = target;
  const score = async (): Promise<string> => {
    const r = await post(http, '/v1/score', 'victim-token', { task: o.task, trajectory: o.victimDoc, passed: true });
    const s = r.body as { score: { total: number }; tier: string };
    return `${s.score.total.toFixed(1)} ${s.tier}`;
  };
  try {
    pinger.window();
    await target.loopDelay();
    const before = await score();
    // 1. Junk references on the victim's task.
    const referenceAnswers: Record<string, number> = {};
    for (let i = 0; i < o.references; i++) tally(referenceAnswers, (await post(http, `/v1/tasks/${o.task}/references`, 'mallory-token', { trajectory: o.junkDoc })).code);
    const afterReferences = await score();
    await phase('references');
    // 2. Fake learn sessions: junk steps, a claimed pass.
    const mallory = await DrillClient.connect(target.url, auth('mallory-token'));
    const learnAnswers: Record<string, number> = {};
    for (let i = 0; i < o.learnSessions; i++) {
      const { final } = await session(mallory, `learn-${i}`, o.task, o.junkEvents, { learn: true }, true);
      tally(
        learnAnswers,
        (final.learned as { version?: number } | undefined)?.version !== undefined ? 'learned' : String((final.learned as { error?: { code?: string } } | undefined)?.error?.code ?? 'none'),
      );
    }
    const afterLearn = await score();
    await phase('learn');
    // 3. Pins and freezes on the victim's agent + model.
    const policyAnswers: Record<string, number> = {};
    tally(policyAnswers, (await post(http, '/v1/policies/pin', 'mallory-token', { ...WHO, policy: { blindRetry: { warn: 1, stop: 2 } } })).code);
    tally(policyAnswers, (await post(http, '/v1/policies/freeze', 'mallory-token', { ...WHO, frozen: true })).code);
    await phase('policies');
    // 4. Fake shadow outcomes under the victim's agent + model: junk "passing", the victim's own run "failing".
    for (let i = 0; i < o.shadowPasses; i++) await session(mallory, `sp-${i}`, 'other-task', o.shadowPassEvents ?? o.junkEvents, WHO, true);
    for (let i = 0; i < o.shadowFails; i++) await session(mallory, `sf-${i}`, o.task, o.victimEvents, WHO, false);
    const policies = (await (await fetch(`${http}/v1/policies`, { headers: auth('ops-token') })).json()) as PoliciesStatus;
    const pair = (tenant: string) => policies.pairs.find((p) => p.tenant === tenant && p.agent === WHO.agent);
    const victim = await DrillClient.connect(target.url, auth('victim-token'));
    let victimStopped = 0;
    let malloryStopped = 0;
    for (let i = 0; i < o.checkSessions; i++) {
      if ((await session(victim, `v-${i}`, o.task, o.victimEvents, WHO)).stops > 0) victimStopped++;
      if ((await session(mallory, `m-${i}`, o.task, o.victimEvents, WHO)).stops > 0) malloryStopped++;
    }
    await phase('shadow');
    // 5. Reads of the victim's sessions, and its ids.
    let readRequests = 0;
    let leaks = 0;
    const read = async (path: string): Promise<void> => {
      readRequests++;
      const res = await fetch(`${http}${path}`, { headers: auth('mallory-token') });
      const text = await res.text();
      if (/"v-\d+"/.test(text) || text.includes('"victim"')) leaks++;
    };
    for (const q of ['', '?tenant=victim', '?limit=1000']) await read(`/v1/sessions${q}`);
    for (let i = 0; i < o.checkSessions; i++) for (const sub of ['', '/steps', '/alignment']) for (const q of ['', '?tenant=victim']) await read(`/v1/sessions/v-${i}${sub}${q}`);
    let duplicateConfirmations = 0;
    for (let i = 0; i < o.checkSessions; i++) {
      mallory.send({ type: 'resume', session: `v-${i}`, after: -1 });
      const f = await mallory.next((x) => x.session === `v-${i}` && (x.type === 'error' || x.type === 'resumed' || x.type === 'final'));
      if (f.type !== 'error' || f.code !== 'unknown_session') leaks++;
      // v-i is the victim's id: in mallory's namespace it was never used, so start opens mallory's own session.
      mallory.send({ type: 'start', session: `v-${i}`, task: o.task });
      const s = await mallory.next((x) => x.session === `v-${i}` && (x.type === 'started' || x.type === 'error'));
      if (s.code === 'duplicate_session') duplicateConfirmations++;
      mallory.send({ type: 'end', session: `v-${i}` });
      await mallory.nextOf('final', `v-${i}`);
    }
    await phase('reads');
    // 6. Every slot: mallory opens sessions past its quota (64 per connection), then goes away; the victim can still start.
    const greedy = await startMany(target.url, 'mallory-token', 'slot', o.slots + 1, o.task);
    const slotAnswers = greedy.answers;
    for (const c of greedy.clients) c.ws.terminate();
    await detached(http, o.slots);
    const after = await startMany(target.url, 'victim-token', 'after', o.slots, o.task);
    const victimRefusedAfterDisconnect = o.slots - (after.answers.started ?? 0);
    for (const c of after.clients) c.close();
    await phase('slots');
    // 7. Live viewers that never read, while mallory streams sessions of its own (its viewers see only those).
    const rssBefore = (await target.memory()).rss / 1e6;
    const sockets = await Promise.all(Array.from({ length: o.stuckViewers }, () => stuckViewer(http)));
    for (let i = 0; i < o.liveSessions; i++) await session(mallory, `live-${i}`, o.task, o.victimEvents, {});
    const rssWith = (await target.memory()).rss / 1e6;
    const metrics = await (await fetch(`${http}/metrics`, { headers: auth('ops-token') })).text();
    const stuckViewersDropped = Number(/steplens_live_viewers_dropped_total (\d+)/.exec(metrics)?.[1] ?? 0);
    for (const s of sockets) s.destroy();
    await phase('viewers');
    victim.close();
    mallory.close();

    const result: HostileTenantResult = {
      victimScore: { before, afterReferences, afterLearn },
      referenceAnswers,
      learnAnswers,
      policyAnswers,
      malloryPromoted: pair('mallory')?.promoted ?? null,
      malloryStopped,
      victimPromoted: pair('victim')?.promoted ?? null,
      victimStopped,
      readRequests,
      leaks,
      duplicateConfirmations,
      slotAnswers,
      victimRefusedAfterDisconnect,
      stuckViewersDropped,
      rssMB: { before: Number(rssBefore.toFixed(1)), withViewers: Number(rssWith.toFixed(1)) },
      pings,
      loopMaxMs,
      problems,
    };
    // At most 2 of mallory's references (POSTed or learned) may be accepted: its quota per task, into its own PTA of the
    // task (the default tenant reference scope), never the victim's (the victim's score above is unchanged).
    const accepted = (referenceAnswers['201'] ?? 0) + (learnAnswers.learned ?? 0);
    if (accepted > 2) problems.push(`${accepted} of mallory's references accepted (its quota is 2)`);
    if ((policyAnswers.forbidden ?? 0) !== 2) problems.push(`pin/freeze answers ${JSON.stringify(policyAnswers)}`);
    if (victimStopped > 0 || result.victimPromoted !== null) problems.push(`victim stopped ${victimStopped}, promoted ${String(result.victimPromoted)}`);
    if (leaks > 0 || duplicateConfirmations > 0) problems.push(`leaks ${leaks}, duplicate confirmations ${duplicateConfirmations}`);
    if ((slotAnswers.quota_exceeded ?? 0) < 1 || victimRefusedAfterDisconnect > 0) problems.push(`slots ${JSON.stringify(slotAnswers)}, victim refused ${victimRefusedAfterDisconnect}`);
    for (const [k, v] of Object.entries(referenceAnswers)) if (!['201', 'forbidden', 'quota_exceeded'].includes(k)) problems.push(`reference answer ${k} x${v}`);
    return result;
  } finally {
    pinger.stop();
    await target.close();
  }
}
