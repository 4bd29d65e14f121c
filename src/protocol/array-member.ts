/**
 * The elements of one or more array members of a JSON object body, as byte ranges, found without parsing the body: a
 * scoring worker parses a 64 MiB `POST /v1/score/batch` an item at a time (and `POST /get_reward` a query, prompt or
 * label at a time), yielding between them, instead of in one `JSON.parse` that held every other tenant's job for its
 * whole length (docs/reliability.md, T31's "Left:").
 *
 * The scan checks the object's own structure (braces, strings, colons, commas) and matches brackets inside values;
 * it does not check the values themselves: the caller parses each range with `JSON.parse`, and the body is valid
 * JSON exactly when every range parses and the scan accepted the rest. Any shape it does not take for certain (the
 * member twice, a key with escapes, a byte-order mark) gives undefined, and the caller parses the body whole.
 */

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const COLON = 0x3a;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;

/** [start, end) of a value in the body. */
export type ByteRange = [number, number];

/**
 * What the scan found besides the elements: which of the members the body has (`found[k]` for `keys[k]`), and where
 * the object's other members' values are (the caller parses them too, to check them).
 */
export interface ArrayMembersRest {
  found: boolean[];
  others: ByteRange[];
  /** The other members' keys, aligned with `others` (a caller that keeps them builds the object JSON.parse would). */
  otherKeys: string[];
}

/** One element of one of the members: `keys[member]`'s element at [start, end). */
export type MemberElement = [member: number, start: number, end: number];

const isBlank = (b: number): boolean => b === 0x20 || b === 0x0a || b === 0x0d || b === 0x09;

/** Past the string that opens at `p` (a quote), or -1 when it does not close. */
function skipString(body: Uint8Array, p: number): number {
  for (let i = p + 1; i < body.length; i++) {
    const b = body[i];
    if (b === BACKSLASH) i++;
    else if (b === QUOTE) return i + 1;
  }
  return -1;
}

/** Past the value that starts at `p`, brackets matched by depth (their kinds are checked by the caller's parse), or -1. */
function skipValue(body: Uint8Array, p: number): number {
  const first = body[p];
  if (first === QUOTE) return skipString(body, p);
  if (first !== OPEN_BRACE && first !== OPEN_BRACKET) {
    let i = p;
    while (i < body.length && !isBlank(body[i]!) && body[i] !== COMMA && body[i] !== CLOSE_BRACE && body[i] !== CLOSE_BRACKET) i++;
    return i > p ? i : -1;
  }
  let depth = 0;
  for (let i = p; i < body.length; i++) {
    const b = body[i];
    if (b === QUOTE) {
      i = skipString(body, i) - 1;
      if (i < 0) return -1;
    } else if (b === OPEN_BRACE || b === OPEN_BRACKET) depth++;
    else if ((b === CLOSE_BRACE || b === CLOSE_BRACKET) && --depth === 0) return i + 1;
  }
  return -1;
}

/**
 * The key's bytes between its quotes, when they hold no escape and no control character (which JSON does not allow
 * there); undefined otherwise: the caller parses whole. Only compared with an ASCII name, so read as Latin-1.
 */
function plainKey(body: Uint8Array, start: number, end: number): string | undefined {
  for (let i = start + 1; i < end - 1; i++) if (body[i] === BACKSLASH || body[i]! < 0x20) return undefined;
  return Buffer.from(body.buffer, body.byteOffset + start + 1, end - start - 2).toString('latin1');
}

/**
 * The elements of the array members `keys` of the JSON object `body`, in the body's order, each yielded as the scan
 * reaches it; the return value is the rest (which members were there, where the others are), or undefined when the
 * body is not plainly an object whose members named in `keys` are arrays, each at most once. Missing ones are the
 * caller's to judge.
 */
export function* arrayMembersElements(body: Uint8Array, keys: readonly string[]): Generator<MemberElement, ArrayMembersRest | undefined, void> {
  const n = body.length;
  let p = 0;
  const blanks = (): void => {
    while (p < n && isBlank(body[p]!)) p++;
  };
  blanks();
  if (body[p] !== OPEN_BRACE) return undefined;
  p++;
  blanks();
  const found = keys.map(() => false);
  const others: ByteRange[] = [];
  const otherKeys: string[] = [];
  while (body[p] !== CLOSE_BRACE) {
    if (body[p] !== QUOTE) return undefined;
    const keyEnd = skipString(body, p);
    if (keyEnd < 0) return undefined;
    const name = plainKey(body, p, keyEnd);
    if (name === undefined) return undefined;
    p = keyEnd;
    blanks();
    if (body[p] !== COLON) return undefined;
    p++;
    blanks();
    const member = keys.indexOf(name);
    if (member >= 0) {
      // Twice: JSON.parse keeps the last, and parsing whole says so for certain.
      if (found[member] === true || body[p] !== OPEN_BRACKET) return undefined;
      found[member] = true;
      p++;
      blanks();
      while (body[p] !== CLOSE_BRACKET) {
        const end = skipValue(body, p);
        if (end < 0) return undefined;
        yield [member, p, end];
        p = end;
        blanks();
        if (body[p] === COMMA) {
          p++;
          blanks();
          if (body[p] === CLOSE_BRACKET) return undefined;
        } else if (body[p] !== CLOSE_BRACKET) return undefined;
      }
      p++;
    } else {
      const end = skipValue(body, p);
      if (end < 0) return undefined;
      others.push([p, end]);
      otherKeys.push(name);
      p = end;
    }
    blanks();
    if (body[p] === COMMA) {
      p++;
      blanks();
      if (body[p] === CLOSE_BRACE) return undefined;
    } else if (body[p] !== CLOSE_BRACE) return undefined;
  }
  p++;
  blanks();
  return p === n ? { others, otherKeys, found } : undefined;
}
