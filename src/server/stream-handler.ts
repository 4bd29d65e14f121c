/** Handles the frames of one WebSocket connection: size check, parse, dispatch per message type. */
import type { Logger } from 'pino';
import type { ClientMessage, EndMessage, OutcomeMessage, ResumeMessage, StartMessage, StepMessage } from '../protocol/client-messages.js';
import type { ServerMessage } from '../protocol/server-messages.js';
import { parseClientMessage, type MessageError } from '../protocol/parse.js';
import type { Connection } from './connection.js';
import type { AppMetrics } from './metrics.js';
import type { ResolvedOptions } from './options.js';
import type { SessionRegistry } from './session-registry.js';
import type { Session } from './session.js';
import type { DurableSessions } from './durable-sessions.js';
import { dispatchDurable, storeDown } from './stream-durable.js';
import { frameHead, tooLargeMessage } from './frame-head.js';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { tenantDebug, tenantInfo } from './tenant-log.js';
import { endPatch } from './end-patch.js';
import { ok } from '../errors.js';
import { mayAnswerUnnamed, unnamedAnswersSpent } from './unnamed-refusals.js';
import { mayBeObject, noteFrame, noteRefusal } from './junk-streams.js';
import { mayTakeOver, takeOverRefusal } from './principal.js';

export interface HandlerDeps {
  registry: SessionRegistry;
  metrics: AppMetrics;
  log: Logger;
  options: ResolvedOptions;
  /** With Redis: steps are durable before their frames are sent, and sessions move between replicas. */
  durable?: DurableSessions;
}

/** Sends an `error` frame and counts the refusal. */
export function refuse(deps: HandlerDeps, conn: Connection, e: MessageError): void {
  deps.metrics.refusals.inc({ code: e.code });
  // A stream that sends nothing but refused frames is closed instead (T75).
  if (noteRefusal(conn, e.code)) return;
  // At a client's pace, a line each: within its tenant's share of lines (T81).
  tenantDebug(deps.log, conn.principal.tenant, { connection: conn.id, ...e }, 'refused');
  conn.send({ type: 'error', code: e.code, message: e.message, ...(e.session !== undefined ? { session: e.session } : {}), ...(e.seq !== undefined ? { seq: e.seq } : {}) });
}

/** A frame that could not be read: one naming no session nor seq is answered within its connection's pace (T70). */
function refuseUnread(deps: HandlerDeps, conn: Connection, e: MessageError): void {
  if (e.session !== undefined || e.seq !== undefined || mayAnswerUnnamed(conn)) return refuse(deps, conn, e);
  deps.metrics.refusals.inc({ code: e.code });
  noteRefusal(conn, e.code);
}

const NOT_AN_OBJECT: MessageError = { code: 'bad_message', message: 'message: expected a JSON object' };

/**
 * Handles one raw frame; never throws or rejects (faults become `internal`
 * errors). Returns a promise only for messages that wait on the store (start, end) or a long resume.
 */
export function handleFrame(deps: HandlerDeps, conn: Connection, raw: Buffer | string, isBinary: boolean): void | Promise<void> {
  noteFrame(conn);
  const size = typeof raw === 'string' ? Buffer.byteLength(raw) : raw.length;
  if (size > deps.options.limits.maxFrameBytes) {
    // Not parsed, but named when its head says which session and step it is: that step is refused, not lost.
    const { type, ...where } = isBinary ? {} : frameHead(raw);
    return refuse(deps, conn, { code: 'too_large', message: tooLargeMessage(type, where.seq, size, deps.options.limits.maxFrameBytes), ...where });
  }
  if (isBinary) return refuseUnread(deps, conn, { code: 'bad_message', message: 'binary frames are not accepted: send JSON text' });
  // No answer left for junk this second (T70): a frame that cannot be an object is counted unparsed (T75).
  if (unnamedAnswersSpent(conn) && !mayBeObject(raw)) return refuseUnread(deps, conn, NOT_AN_OBJECT);
  let parsed: ReturnType<typeof parseClientMessage>;
  try {
    parsed = parseClientMessage(raw);
  } catch (error) {
    // A parser fault must cost one frame, never the process (and every session on it).
    deps.log.error({ err: error, connection: conn.id }, 'frame parsing failed');
    return refuseUnread(deps, conn, { code: 'bad_message', message: 'message: could not be parsed' });
  }
  if (!parsed.ok) return refuseUnread(deps, conn, parsed.error);
  const m = parsed.value;
  try {
    const pending = dispatch(deps, conn, m, raw);
    return pending instanceof Promise ? pending.catch((error: unknown) => fault(deps, conn, m, error)) : undefined;
  } catch (error) {
    return fault(deps, conn, m, error);
  }
}

/** A fault while handling `m`: logged, and answered with an `internal` error frame. */
function fault(deps: HandlerDeps, conn: Connection, m: ClientMessage, error: unknown): void {
  deps.log.error({ err: error, connection: conn.id }, 'message handling failed');
  // The seq, when there is one, is named and left unaccepted: the client may send it again.
  refuse(deps, conn, {
    code: 'internal',
    message: 'internal error while handling the message',
    ...('session' in m && m.session ? { session: m.session } : {}),
    ...(m.type === 'step' ? { seq: m.seq } : {}),
  });
}

/** `raw` is the frame as received: with Redis, an accepted step is stored as such (no re-serialising). */
function dispatch(deps: HandlerDeps, conn: Connection, msg: ClientMessage, raw: Buffer | string): void | Promise<void> {
  if (!deps.durable) return dispatchLocal(deps, conn, msg, raw);
  return dispatchDurable(deps.durable, conn, msg, { local: (m) => dispatchLocal(deps, conn, m, raw), resumeOn: (s, m) => resumeOn(deps, conn, s, m), refuse: (e) => refuse(deps, conn, e) });
}

function dispatchLocal(deps: HandlerDeps, conn: Connection, msg: ClientMessage, raw: Buffer | string): void | Promise<void> {
  switch (msg.type) {
    case 'ping':
      conn.send({ type: 'pong' });
      return;
    case 'start':
      return onStart(deps, conn, msg);
    case 'step':
      return onStep(deps, conn, msg, raw);
    case 'outcome':
      return onOutcome(deps, conn, msg);
    case 'end':
      return onEnd(deps, conn, msg);
    case 'resume':
      return onResume(deps, conn, msg);
  }
}

/**
 * The session named by a message, if it exists and belongs to this connection. The one the connection named last
 * is taken when the registry still holds it under its key and the id and tenant are its own (what `find` would
 * answer), without building and hashing the key of a fresh id string (bench/README.md, "Lifecycle, eleventh pass").
 */
function owned(deps: HandlerDeps, conn: Connection, id: string, seq?: number): Session | undefined {
  const last = conn.lastNamed;
  const tenant = conn.principal.tenant;
  const s = last?.id === id && last.tenant === tenant && deps.registry.get(last.key) === last ? last : deps.registry.find(tenant, id);
  if (s?.connection === conn.id) {
    conn.lastNamed = s;
    s.lastActivity = Date.now();
    return s;
  }
  const hint = s ? ' on this connection (send resume first)' : '';
  refuse(deps, conn, { code: 'unknown_session', message: `no session ${id}${hint}`, session: id, ...(seq !== undefined ? { seq } : {}) });
  return undefined;
}

async function onStart(deps: HandlerDeps, conn: Connection, msg: StartMessage): Promise<void> {
  const started = await deps.registry.start(msg, conn);
  if (!started.ok) return refuse(deps, conn, started.error);
  const s = started.value;
  conn.send({ type: 'started', session: s.id, task: s.task, format: s.format, reference: s.reference });
}

/** `budgeted`: the step was checked against its tenant's journal budget already (it waited for Redis to answer). */
function onStep(deps: HandlerDeps, conn: Connection, msg: StepMessage, raw: Buffer | string, budgeted = false): void | Promise<void> {
  const s = owned(deps, conn, msg.session, msg.seq);
  if (!s) return;
  const durable = deps.durable !== undefined && msg.seq === s.lastSeq + 1 && !s.ended;
  if (durable && !deps.durable?.available()) return refuse(deps, conn, storeDown(deps.durable!, msg.session, msg.seq));
  // Each accepted step is kept in Redis as received: a session may keep at most maxSessionBytes there.
  const bytes = typeof raw === 'string' ? Buffer.byteLength(raw) : raw.length;
  const max = deps.options.limits.maxSessionBytes;
  // What the tenant's open sessions, and all of them, hold in memory (tenant-step-bytes.ts, T37, T43): checked
  // before the journal budget, which counts what it admits.
  const overHeld = msg.seq === s.lastSeq + 1 && !s.ended && !budgeted ? deps.registry.stepBytes.refusal(s, bytes) : undefined;
  if (overHeld !== undefined) return refuse(deps, conn, { ...overHeld, session: s.id, seq: msg.seq });
  if (durable && s.storedBytes + bytes > max) {
    return refuse(deps, conn, {
      code: 'too_large',
      message: `session ${s.id}: its stored steps would take ${s.storedBytes + bytes} bytes, over the limit of ${max} bytes`,
      session: s.id,
      seq: msg.seq,
    });
  }
  // The tenant's steps in Redis, every session and replica together: checked before scoring (journal-budget.ts).
  if (durable && !budgeted) {
    const over = deps.durable!.budget(s, msg.seq, bytes);
    if (over instanceof Promise) return over.then((e) => (e ? refuse(deps, conn, e) : onStep(deps, conn, msg, raw, true)));
    if (over) return refuse(deps, conn, over);
  }
  const began = performance.now();
  const outcome = s.step(msg.seq, msg.step);
  if (outcome.kind === 'accepted') {
    deps.registry.stepBytes.add(s, bytes);
    const seconds = (performance.now() - began) / 1000;
    if (outcome.results.length > 0) {
      deps.metrics.stepsScored.inc(outcome.results.length);
      deps.metrics.stepLatency.observe(seconds / outcome.results.length);
    }
    deps.registry.scored(s, outcome.frames);
    if (durable && deps.durable) {
      s.storedBytes += bytes;
      conn.sendWhen(deps.durable.persistStep(s, msg.seq, raw, outcome.frames));
    } else for (const f of outcome.frames) conn.send(f);
    if (deps.log.isLevelEnabled('debug'))
      for (const r of outcome.results) {
        deps.log.debug({ session: s.id, task: s.task, seq: msg.seq, t: r.t, stage: r.state.stage, total: r.score.total, signals: r.signals.length }, 'step scored');
      }
    return;
  }
  const where = { session: s.id, seq: msg.seq };
  switch (outcome.kind) {
    case 'duplicate':
      for (const f of outcome.frames) conn.send(f);
      return;
    case 'out_of_order':
      return refuse(deps, conn, { code: 'out_of_order', message: `seq ${msg.seq} is past the next expected seq ${outcome.expected}`, ...where });
    case 'invalid':
      return refuse(deps, conn, { code: 'bad_message', message: outcome.message, ...where });
    case 'too_large':
      return refuse(deps, conn, { code: 'too_large', message: outcome.message, ...where });
    case 'ended':
      return refuse(deps, conn, { code: 'bad_message', message: `session ${s.id} ${s.ended ? 'has ended' : 'is ending'}: no more steps`, ...where });
  }
}

function onOutcome(deps: HandlerDeps, conn: Connection, msg: OutcomeMessage): void {
  const s = owned(deps, conn, msg.session);
  if (!s) return;
  if (s.finishing) return refuse(deps, conn, { code: 'bad_message', message: `session ${s.id} ${s.ended ? 'has ended' : 'is ending'}: send outcome before end`, session: s.id });
  if (deps.durable && !deps.durable.available()) return refuse(deps, conn, storeDown(deps.durable, s.id));
  deps.registry.setOutcome(s, msg.passed);
  if (deps.durable) conn.sendWhen(deps.durable.persistOutcome(s, msg.passed));
}

async function onEnd(deps: HandlerDeps, conn: Connection, msg: EndMessage): Promise<void> {
  const s = owned(deps, conn, msg.session);
  if (!s) return;
  // An end still in progress (a first `end` before a resume here) sends the final here once made.
  if (s.final && !deps.registry.endingNow(s)) {
    conn.send(s.final);
    return;
  }
  // The patch of the end that began the ending counts; one sent while it is ending is not read.
  const patch = s.finishing ? ok(undefined) : await endPatch(deps.registry.stepBytes, s, msg.patch);
  if (!patch.ok) return refuse(deps, conn, patch.error);
  await deps.registry.end(s, 'end', patch.value);
}

function onResume(deps: HandlerDeps, conn: Connection, msg: ResumeMessage): void | Promise<void> {
  // Ids live in the connection's tenant's namespace: another tenant's session is as unknown as one never started.
  const s = deps.registry.find(conn.principal.tenant, msg.session);
  if (!s) return refuse(deps, conn, { code: 'unknown_session', message: `no session ${msg.session} (never started, or expired)`, session: msg.session });
  // An agent token of an operator's tenant must not end (and so learn) the operator's session with its own steps (T90).
  if (!mayTakeOver(conn.principal, s.principal)) return refuse(deps, conn, { code: 'forbidden', message: takeOverRefusal(s.id, s.principal), session: s.id });
  return resumeOn(deps, conn, s, msg);
}

/**
 * Frames one resume re-sends in a turn of the event loop. A resume of a 5,000-step session re-sends (and decodes)
 * every frame after `after`: 8 connections pipelining 64 resumes of one such session held every other client's
 * ping over 8 s. Past this many, the rest goes in the next turns; the connection's later messages wait for it
 * (messages of a connection are handled in order), so a connection replays one resume at a time.
 */
export const RESUME_FRAMES_PER_TURN = 256;

/**
 * The answer to a resume of a session this replica holds: `resumed`, the frames after `after`, the final if ended.
 * A promise when the frames take more than one turn ({@link RESUME_FRAMES_PER_TURN}).
 */
function resumeOn(deps: HandlerDeps, conn: Connection, s: Session, msg: ResumeMessage): void | Promise<void> {
  if (!s.ended && s.connection !== conn.id && deps.registry.openOn(conn) >= deps.options.limits.sessionsPerConnection) {
    return refuse(deps, conn, { code: 'overloaded', message: `this connection already holds ${deps.options.limits.sessionsPerConnection} sessions`, session: s.id });
  }
  deps.registry.attach(s, conn);
  s.lastActivity = Date.now();
  conn.send({ type: 'resumed', session: s.id, last: s.lastSeq });
  const frames = s.framesAfter(msg.after);
  if (sendSome(conn, frames)) return resumed(deps, conn, s, msg);
  return sendRest(deps, conn, s, msg, frames);
}

/** Sends up to {@link RESUME_FRAMES_PER_TURN} of `frames`; true once none is left. */
function sendSome(conn: Connection, frames: Iterator<ServerMessage, void>): boolean {
  for (let n = 0; n < RESUME_FRAMES_PER_TURN; n++) {
    const next = frames.next();
    if (next.done === true) return true;
    conn.send(next.value);
  }
  return false;
}

/** The rest of a resume's frames, a slice a turn; stops when the connection closed or no longer holds the session. */
async function sendRest(deps: HandlerDeps, conn: Connection, s: Session, msg: ResumeMessage, frames: Iterator<ServerMessage, void>): Promise<void> {
  do {
    await nextTurn();
    if (!conn.open || s.connection !== conn.id) return;
  } while (!sendSome(conn, frames));
  resumed(deps, conn, s, msg);
}

/** Ends a resume: the final of an ended session, and the log line. */
function resumed(deps: HandlerDeps, conn: Connection, s: Session, msg: ResumeMessage): void {
  if (s.final && !deps.registry.endingNow(s)) conn.send(s.final);
  tenantInfo(deps.log, s.tenant, { session: s.id, task: s.task, after: msg.after, last: s.lastSeq }, 'session resumed');
}
