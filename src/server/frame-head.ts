/**
 * The `session` and `seq` of a frame refused before it is parsed (over `maxFrameBytes`), read by one pass over
 * the head of its top-level object that skips every other value without building it: the `too_large` error can
 * then name the step, and the client rejects that step instead of taking the next pong for its answer.
 */

/** What a refusal can name; empty when the frame is not a JSON object or names neither. */
export interface FrameHead {
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
      else if (key === 'session' && typeof value === 'string') head.session = value;
      else if (key === 'seq' && Number.isSafeInteger(value)) head.seq = value as number;
    }
    if (type !== undefined && head.session !== undefined && head.seq !== undefined) break;
    blank();
    if (at(i) !== 0x2c) break;
    i++;
  }
  // Only a step's seq is one: any other message's `seq` is not a step the client waits on.
  if (type !== 'step') delete head.seq;
  return head;
}
