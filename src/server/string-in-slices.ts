/**
 * A big JSON string value of a body (a log sent as its text in `trajectory`) parsed a piece at a time in the scoring
 * worker (T100): one JSON.parse of a 60 MB body whose `trajectory` is a JSON Lines text, decoded and parsed in one go,
 * held the worker's thread, every other tenant's job there waiting.
 */
import { setImmediate as nextTurn } from 'node:timers/promises';

const QUOTE = 0x22;
const BACKSLASH = 0x5c;

/**
 * The first offset in [from, last) where an escape starts (a backslash not itself escaped), or `last`. Cut there, each
 * piece ends with its escapes whole and its UTF-8 whole (no byte of a multi-byte character is a backslash).
 */
function escapeStart(body: Uint8Array, from: number, last: number): number {
  for (let q = from; q < last; q++) {
    if (body[q] !== BACKSLASH) continue;
    let before = 0;
    while (body[q - 1 - before] === BACKSLASH) before++;
    if (before % 2 === 0) return q;
    // `q` is the escaped half of a `\\`: the escape started at q - 1, the next may start at q + 1.
  }
  return last;
}

/**
 * The JSON string at [start, end) of `body` (its quotes included, as the scan found it), parsed in pieces of about
 * `pieceBytes` each cut before an escape, the event loop turning between them: the same string as one JSON.parse gives
 * (a surrogate pair cut between its two `\u` escapes joins again: strings are UTF-16 code units); JSON.parse's error on
 * a piece when the string is not valid JSON.
 */
export async function jsonStringInSlices(body: Uint8Array, start: number, end: number, pieceBytes: number): Promise<string> {
  const decoder = new TextDecoder();
  const pieces: string[] = [];
  const last = end - 1;
  for (let from = start + 1; from < last;) {
    const cut = from + pieceBytes >= last ? last : escapeStart(body, from + pieceBytes, last);
    const bytes = new Uint8Array(cut - from + 2);
    bytes[0] = QUOTE;
    bytes.set(body.subarray(from, cut), 1);
    bytes[bytes.length - 1] = QUOTE;
    pieces.push(JSON.parse(decoder.decode(bytes)) as string);
    from = cut;
    if (from < last) await nextTurn();
  }
  return pieces.join('');
}
