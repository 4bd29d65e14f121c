/**
 * The JSON text of a server frame. `score` frames (one per step, the bulk of
 * the traffic) are written by hand, field by field in the order the server
 * builds them, which costs about half of `JSON.stringify`; every other frame,
 * and any score frame with a non-finite number, goes through `JSON.stringify`.
 * The text is identical to `JSON.stringify(frame)` for frames built by
 * `Session` (tested on real sessions, against a PTA and the prior).
 * {@link frameBytes} writes a score frame's bytes straight into a Buffer: no
 * string of the frame, no string per integer, no flattening and encoding of a
 * concatenation (about 1 KB of garbage a step on the server's step path).
 */
import type { ReferenceInfo, ScoreVector } from '../core/types.js';
import type { ScoreMessage, ServerMessage } from '../protocol/server-messages.js';

const referenceText = new WeakMap<ReferenceInfo, string>();

function jsonOf(reference: ReferenceInfo): string {
  let text = referenceText.get(reference);
  if (text === undefined) {
    text = JSON.stringify(reference);
    referenceText.set(reference, text);
  }
  return text;
}

const num = (n: number | null): string => (n === null ? 'null' : String(n));

function finite(v: ScoreVector, reward: number): boolean {
  return (
    Number.isFinite(v.total) &&
    Number.isFinite(v.coh) &&
    Number.isFinite(v.temp) &&
    Number.isFinite(reward) &&
    (v.struct === null || Number.isFinite(v.struct)) &&
    (v.cov === null || Number.isFinite(v.cov))
  );
}

/** A score frame as `Session` builds it (its keys, and the score vector's as `composite` builds it, in this order). */
function scoreText(m: ScoreMessage): string | undefined {
  const v = m.score;
  if (!finite(v, m.reward) || (m.pPass !== undefined && !Number.isFinite(m.pPass))) return undefined;
  const pPass = m.pPass !== undefined ? `,"pPass":${num(m.pPass)}` : '';
  return `{"type":"score","session":${JSON.stringify(m.session)},"seq":${m.seq},"t":${m.t},"stage":"${m.stage}","score":{"total":${num(v.total)},"struct":${num(v.struct)},"cov":${num(v.cov)},"coh":${num(v.coh)},"temp":${num(v.temp)}},"reward":${num(m.reward)},"tier":"${m.tier}","reference":${jsonOf(m.reference)}${pPass}}`;
}

/** Where {@link scoreBytes} writes a frame (grown when a frame needs more), and the next byte to write. */
let scratch = Buffer.allocUnsafe(1024);
let at = 0;

function room(n: number): void {
  if (at + n <= scratch.length) return;
  const grown = Buffer.allocUnsafe(Math.max(2 * scratch.length, at + n));
  scratch.copy(grown, 0, 0, at);
  scratch = grown;
}

/** Writes `s` when it is ASCII (one byte a character, as UTF-8 encodes it); false otherwise. */
function ascii(s: string): boolean {
  room(s.length);
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c > 0x7f) return false;
    scratch[at++] = c;
  }
  return true;
}

/** A number as `JSON.stringify` writes it (finite: checked by the caller); non-negative safe integers digit by digit (no string). */
function number(n: number): void {
  if (!Number.isSafeInteger(n) || n < 0) {
    ascii(String(n));
    return;
  }
  let digits = 1;
  for (let p = 10; p <= n; p *= 10) digits++;
  room(digits);
  for (let i = at + digits - 1; i >= at; i--) {
    scratch[i] = 0x30 + (n % 10);
    n = Math.floor(n / 10);
  }
  at += digits;
}

/** A string as `JSON.stringify` writes it, when ASCII; false otherwise (then the caller encodes the text). */
function quoted(s: string): boolean {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    // Characters JSON escapes: control characters, `"` and `\`; past ASCII, UTF-8 takes more than a byte.
    if (c < 0x20 || c === 0x22 || c === 0x5c || c > 0x7e) return ascii(JSON.stringify(s));
  }
  room(s.length + 2);
  scratch[at++] = 0x22;
  ascii(s);
  scratch[at++] = 0x22;
  return true;
}

const referenceBytes = new WeakMap<ReferenceInfo, Buffer>();

function referenceJson(reference: ReferenceInfo): Buffer {
  let bytes = referenceBytes.get(reference);
  if (bytes === undefined) {
    bytes = Buffer.from(jsonOf(reference), 'utf8');
    referenceBytes.set(reference, bytes);
  }
  return bytes;
}

/** The bytes of {@link scoreText}'s text, written without building it; undefined where it is undefined or not ASCII. */
function scoreBytes(m: ScoreMessage): Buffer | undefined {
  const v = m.score;
  if (!finite(v, m.reward) || (m.pPass !== undefined && !Number.isFinite(m.pPass))) return undefined;
  at = 0;
  ascii('{"type":"score","session":');
  if (!quoted(m.session)) return undefined;
  ascii(',"seq":');
  number(m.seq);
  ascii(',"t":');
  number(m.t);
  ascii(',"stage":"');
  ascii(m.stage);
  ascii('","score":{"total":');
  number(v.total);
  ascii(',"struct":');
  if (v.struct === null) ascii('null');
  else number(v.struct);
  ascii(',"cov":');
  if (v.cov === null) ascii('null');
  else number(v.cov);
  ascii(',"coh":');
  number(v.coh);
  ascii(',"temp":');
  number(v.temp);
  ascii('},"reward":');
  number(m.reward);
  ascii(',"tier":"');
  if (!ascii(m.tier)) return undefined;
  ascii('","reference":');
  const ref = referenceJson(m.reference);
  room(ref.length);
  scratch.set(ref, at);
  at += ref.length;
  if (m.pPass !== undefined) {
    ascii(',"pPass":');
    number(m.pPass);
  }
  ascii('}');
  const out = Buffer.allocUnsafe(at);
  scratch.copy(out, 0, 0, at);
  return out;
}

/** The UTF-8 bytes of {@link frameText}'s text (a score frame written straight into them). */
export function frameBytes(frame: ServerMessage): Buffer {
  return (frame.type === 'score' ? scoreBytes(frame) : undefined) ?? Buffer.from(frameText(frame), 'utf8');
}

/** `JSON.stringify(frame)`, faster for the score frames a `Session` builds (field order as there). */
export function frameText(frame: ServerMessage): string {
  return (frame.type === 'score' ? scoreText(frame) : undefined) ?? JSON.stringify(frame);
}
