/**
 * A fast path for the two frames every session sends once, `start` and `end`, in their usual shapes: a
 * hand-written check that accepts only frames the zod schemas accept, and returns what zod returns for them (a new
 * object with the schema's keys in the schema's order). Anything else (a `policy`, an unknown key, any value zod
 * would refuse) returns undefined and goes through zod, which also writes the error message. Inside the server's
 * loop zod's check of these two small frames took 19-22 µs each (its code gone cold between sessions; 0.9-1.6 hot),
 * ~0.5 µs a step of a 79-step session (bench/README.md, "Lifecycle CPU per step, fifth pass"). A property test
 * compares both paths on valid, edge and mutated frames.
 */
import { isRecord } from '../core/json-value.js';
import { FORMAT_NAMES, type FormatName } from '../formats/types.js';
import { MAX_END_PATCH_CHARS, SESSION_ID_MAX, TASK_ID_MAX_LENGTH, wellFormed, type EndMessage, type StartMessage } from './client-messages.js';

/** The longest `agent` and `model` (the start schema's `max(256)`). */
const NAME_MAX = 256;

/** What `sessionIdSchema` takes: 1-128 characters, each printable ASCII without space, not `.` nor `..` (fast-step.ts too). */
export function sessionId(v: unknown): v is string {
  if (typeof v !== 'string' || v.length === 0 || v.length > SESSION_ID_MAX || v === '.' || v === '..') return false;
  for (let i = 0; i < v.length; i++) {
    const c = v.charCodeAt(i);
    if (c < 0x21 || c > 0x7e) return false;
  }
  return true;
}

function isFormat(v: unknown): v is FormatName {
  return (FORMAT_NAMES as readonly unknown[]).includes(v);
}

function optionalName(v: unknown): v is string | undefined {
  return v === undefined || (typeof v === 'string' && v.length <= NAME_MAX);
}

/** True when every own key of `doc` is one of `keys` (a key zod would strip, or `policy`, leaves the frame to zod). */
function onlyKeys(doc: Record<string, unknown>, keys: ReadonlySet<string>): boolean {
  for (const k in doc) if (Object.hasOwn(doc, k) && !keys.has(k)) return false;
  return true;
}

const START_KEYS: ReadonlySet<string> = new Set(['type', 'session', 'task', 'format', 'agent', 'model', 'learn']);
const END_KEYS: ReadonlySet<string> = new Set(['type', 'session', 'patch']);

/** `startMessageSchema`'s answer for a parsed JSON `start` frame it accepts, when the check by hand can tell; else undefined. */
function fastStart(doc: Record<string, unknown>): StartMessage | undefined {
  if (doc.type !== 'start' || !onlyKeys(doc, START_KEYS)) return undefined;
  const { session, task, format, agent, model, learn } = doc;
  if (session !== undefined && !sessionId(session)) return undefined;
  if (typeof task !== 'string' || task.length === 0 || task.length > TASK_ID_MAX_LENGTH || !wellFormed(task)) return undefined;
  if (format !== undefined && !isFormat(format)) return undefined;
  if (!optionalName(agent) || !optionalName(model) || (learn !== undefined && typeof learn !== 'boolean')) return undefined;
  // The schema's key order, each key only when the frame has it (as zod builds its output).
  const out: StartMessage = session === undefined ? { type: 'start', task } : { type: 'start', session, task };
  if (format !== undefined) out.format = format;
  if (agent !== undefined) out.agent = agent;
  if (model !== undefined) out.model = model;
  if (learn !== undefined) out.learn = learn;
  return out;
}

/** `endMessageSchema`'s answer for a parsed JSON `end` frame it accepts, when the check by hand can tell; else undefined. */
function fastEnd(doc: Record<string, unknown>): EndMessage | undefined {
  if (doc.type !== 'end' || !onlyKeys(doc, END_KEYS)) return undefined;
  const { session, patch } = doc;
  if (!sessionId(session)) return undefined;
  if (patch === undefined) return { type: 'end', session };
  return typeof patch === 'string' && patch.length <= MAX_END_PATCH_CHARS ? { type: 'end', session, patch } : undefined;
}

/**
 * zod's answer for a parsed JSON `start` or `end` frame (a value of `JSON.parse`: no `undefined` in it) that the
 * check by hand takes; undefined for any other frame, which goes through zod.
 */
export function fastSessionMessage(doc: unknown): StartMessage | EndMessage | undefined {
  if (!isRecord(doc)) return undefined;
  return doc.type === 'start' ? fastStart(doc) : doc.type === 'end' ? fastEnd(doc) : undefined;
}
