/**
 * The `type`, `session` and `seq` of a frame refused before it is parsed (over `maxFrameBytes`), read by one pass
 * over the head of its top-level object that skips every other value without building it: the `too_large` error can
 * then name the step, and the client rejects that step instead of taking the next pong for its answer (or the end,
 * whose patch made it too large).
 */
import { MAX_END_PATCH_CHARS, SESSION_ID_MAX } from '../protocol/client-messages.js';

/** What a refusal can name; empty when the frame is not a JSON object or names neither. */
export interface FrameHead {
  /** The frame's `type` when it is one of the short names a message has. */
  type?: string;
  session?: string;
  seq?: number;
}

/** Longest session id or seq token read (a session id is at most 128 characters; escapes may triple it). */
const MAX_FIELD = 1024;
/** How far into a frame the fields are looked for (2 ms of scanning): the clients send them first, before the step. */
const HEAD = 64 * 1024;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;

/** A character that ends a number, `true`, `false` or `null`: a separator, a closing bracket or a blank. */
const ends = (c: number): boolean => c === 0x2c || c === 0x7d || c === 0x5d || c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09;

export function frameHead(raw: Buffer | string): FrameHead {
  // JSON's structure is ASCII and no byte of a multi-byte UTF-8 character is below 0x80: bytes can be scanned as is.
  const at: (i: number) => number = typeof raw === 'string' ? (i) => raw.charCodeAt(i) : (i) => raw[i] ?? -1;
  const text = (from: number, to: number): string => (typeof raw === 'string' ? raw.slice(from, to) : raw.toString('utf8', from, to));
  const n = Math.min(raw.length, HEAD);
  let i = 0;
  const blank = (): void => {
    while (i < n && (at(i) === 0x20 || at(i) === 0x0a || at(i) === 0x0d || at(i) === 0x09)) i++;
  };
  /** From an opening quote to past its closing one; false when the string never closes. */
  const skipString = (): boolean => {
    for (i++; i < n; i++) {
      const c = at(i);
      if (c === BACKSLASH) i++;
      else if (c === QUOTE) {
        i++;
        return true;
      }
    }
    return false;
  };
  /** Past one value of any kind (nested ones by depth, never by recursion); false on a value that never ends. */
  const skipValue = (): boolean => {
    let depth = 0;
    do {
      blank();
      const c = at(i);
      if (c === QUOTE) {
        if (!skipString()) return false;
      } else if (c === 0x7b || c === 0x5b) {
        depth++;
        i++;
      } else if (c === 0x7d || c === 0x5d) {
        depth--;
        i++;
      } else if (c === 0x2c || c === 0x3a) i++;
      else if (i >= n) return false;
      else while (i < n && !ends(at(i))) i++;
    } while (depth > 0);
    return true;
  };
  const decoded = (from: number): unknown => {
    if (i - from > MAX_FIELD) return undefined;
    try {
      return JSON.parse(text(from, i)) as unknown;
    } catch {
      return undefined;
    }
  };

  const head: FrameHead = {};
  let type: unknown;
  blank();
  if (at(i) !== 0x7b) return {};
  i++;
  for (;;) {
    blank();
    if (at(i) !== QUOTE) break;
    const keyStart = i;
    if (!skipString()) break;
    const key = i - keyStart <= 16 ? decoded(keyStart) : undefined;
    blank();
    if (at(i) !== 0x3a) break;
    i++;
    blank();
    const valueStart = i;
    if (!skipValue()) break;
    if (key === 'type' || key === 'session' || key === 'seq') {
      const value = decoded(valueStart);
      if (key === 'type') type = value;
      // A longer one names no session: it is not sent back (T54).
      else if (key === 'session' && typeof value === 'string' && value.length <= SESSION_ID_MAX) head.session = value;
      else if (key === 'seq' && Number.isSafeInteger(value)) head.seq = value as number;
    }
    if (type !== undefined && head.session !== undefined && head.seq !== undefined) break;
    blank();
    if (at(i) !== 0x2c) break;
    i++;
  }
  // Only a step's seq is one: any other message's `seq` is not a step the client waits on.
  if (type !== 'step') delete head.seq;
  if (typeof type === 'string' && type.length <= 16) head.type = type;
  return head;
}

/**
 * What a frame over `maxFrameBytes` is refused with: a step names its seq; an end names its patch, which the clients
 * bound in characters (MAX_END_PATCH_CHARS) while the frame is bounded in bytes (a patch of non-ASCII text passes the
 * one and not the other); a frame whose head names neither says that an end's patch counts too.
 */
export function tooLargeMessage(type: string | undefined, seq: number | undefined, size: number, max: number): string {
  const over = `frame of ${size} bytes exceeds the limit of ${max} bytes (maxFrameBytes)`;
  if (seq !== undefined) return `step: its ${over}; not accepted (a smaller step may be sent with this seq)`;
  const patch = `end.patch counts in the frame in UTF-8 bytes, within its ${MAX_END_PATCH_CHARS} characters`;
  if (type === 'end') return `end.patch: the end's ${over}: ${patch}; the session stays open: send end again with a shorter patch, or none`;
  return `${over}; an end with a patch must fit in it too (${patch})`;
}
