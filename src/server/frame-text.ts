/**
 * The JSON text of a server frame. `score` frames (one per step, the bulk of
 * the traffic) are written by hand, field by field in the order the server
 * builds them, straight into their bytes ({@link frameBytes}): no string of
 * the frame, no string per integer, no flattening and encoding of a
 * concatenation (about 1 KB of garbage a step on the server's step path).
 * Every other frame, and any score frame with a non-finite number or an id,
 * stage or tier that is not plain ASCII, goes through `JSON.stringify`. The
 * bytes are those of `JSON.stringify(frame)` for frames built by `Session`
 * (tested on real sessions, against a PTA and the prior).
 */
import type { ReferenceInfo, ScoreVector } from '../core/types.js';
import type { ScoreMessage, ServerMessage } from '../protocol/server-messages.js';
import { putDouble } from './number-bytes.js';

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

/**
 * Where {@link scoreBytes} writes frames, one after the other, each handed out as a view of its bytes: a frame
 * written in a scratch buffer and copied out took two view objects (`Buffer.allocUnsafe`'s of Node's pool, and the
 * one `Buffer.copy` makes of its source), ~0.2 KB a step (bench/README.md, "Lifecycle CPU per step, seventh pass").
 * A slab is as big as Node's own pool (8 KB), so a kept frame keeps no more than a pool's slice of it did.
 */
const SLAB_BYTES = 8 * 1024;
let slab = Buffer.allocUnsafeSlow(SLAB_BYTES);
/** The slab's first free byte (each frame starts 8-aligned, as Node's pool aligns its slices). */
let used = 0;

/** Characters `String(n)` takes at most for a double (`-1.2345678901234567e-308`). */
const NUMBER_MAX = 24;

/** Writes ASCII `s` at `p` (every character below 0x80: checked by the caller or known); returns the end. */
function put(b: Buffer, p: number, s: string): number {
  for (let i = 0; i < s.length; i++) b[p++] = s.charCodeAt(i);
  return p;
}

/**
 * Writes a number as `JSON.stringify` does (finite: checked by the caller) at `p`: non-negative safe integers digit
 * by digit, other doubles by {@link putDouble} (no string either), `String(n)` for what that leaves.
 */
function putNumber(b: Buffer, p: number, n: number): number {
  if (!Number.isSafeInteger(n) || n < 0) {
    const end = putDouble(b, p, n);
    return end >= 0 ? end : put(b, p, String(n));
  }
  let end = p + 1;
  for (let q = 10; q <= n; q *= 10) end++;
  for (let i = end - 1; i >= p; i--) {
    b[i] = 0x30 + (n % 10);
    n = Math.floor(n / 10);
  }
  return end;
}

/** True when `JSON.stringify(s)` is `s` in quotes, one byte a character: printable ASCII but `"` and `\\`. */
function plain(s: string): boolean {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x20 || c === 0x22 || c === 0x5c || c > 0x7e) return false;
  }
  return true;
}

const referenceBytes = new WeakMap<ReferenceInfo, Buffer>();

/**
 * The JSON bytes of a session's reference, kept while the reference is (one object per PTA version, shared by the
 * sessions of its task: core/scorer.ts), in a buffer of their own
 * (exported for tests): `Buffer.from` of a short string is a view of Node's shared 8 KB pool, and one kept view
 * keeps its whole pool slab alive, so each open session held about a slab (8.4 KB of `external` a session in
 * bench/memory.ts; bench/README.md, "Memory per session, fifth pass").
 */
export function referenceJson(reference: ReferenceInfo): Buffer {
  let bytes = referenceBytes.get(reference);
  if (bytes === undefined) {
    const text = JSON.stringify(reference);
    bytes = Buffer.allocUnsafeSlow(Buffer.byteLength(text, 'utf8'));
    bytes.write(text, 0, 'utf8');
    referenceBytes.set(reference, bytes);
  }
  return bytes;
}

/**
 * A score frame's bytes as `Session` builds it (its keys, and the score vector's as `composite` builds it, in this
 * order); undefined where a number is not finite or the session id, stage or tier is not plain ASCII.
 */
function scoreBytes(m: ScoreMessage): Buffer | undefined {
  const v = m.score;
  if (!finite(v, m.reward) || (m.pPass !== undefined && !Number.isFinite(m.pPass))) return undefined;
  if (!plain(m.session) || !plain(m.stage) || !plain(m.tier)) return undefined;
  const ref = referenceJson(m.reference);
  // Every fixed part, the strings and ten numbers at their longest.
  const most = 160 + m.session.length + m.stage.length + m.tier.length + ref.length + 10 * NUMBER_MAX;
  if (slab.length - used < most) {
    slab = Buffer.allocUnsafeSlow(Math.max(most, SLAB_BYTES));
    used = 0;
  }
  const b = slab;
  const start = used;
  let p = put(b, start, '{"type":"score","session":"');
  p = put(b, p, m.session);
  p = put(b, p, '","seq":');
  p = putNumber(b, p, m.seq);
  p = put(b, p, ',"t":');
  p = putNumber(b, p, m.t);
  p = put(b, p, ',"stage":"');
  p = put(b, p, m.stage);
  p = put(b, p, '","score":{"total":');
  p = putNumber(b, p, v.total);
  p = put(b, p, ',"struct":');
  p = v.struct === null ? put(b, p, 'null') : putNumber(b, p, v.struct);
  p = put(b, p, ',"cov":');
  p = v.cov === null ? put(b, p, 'null') : putNumber(b, p, v.cov);
  p = put(b, p, ',"coh":');
  p = putNumber(b, p, v.coh);
  p = put(b, p, ',"temp":');
  p = putNumber(b, p, v.temp);
  p = put(b, p, '},"reward":');
  p = putNumber(b, p, m.reward);
  p = put(b, p, ',"tier":"');
  p = put(b, p, m.tier);
  p = put(b, p, '","reference":');
  b.set(ref, p);
  p += ref.length;
  if (m.pPass !== undefined) {
    p = put(b, p, ',"pPass":');
    p = putNumber(b, p, m.pPass);
  }
  b[p++] = 0x7d; // }
  used = (p + 7) & ~7;
  return b.subarray(start, p);
}

/**
 * The last `final` frame stringified and its text: a session's end measures its final (Session.keptBytes) and then
 * sends it, and each stringified the whole report (~0.2 µs a step of the session, bench/README.md "Lifecycle CPU
 * per step, third pass"). One slot, so at most one final's text is kept beyond its use; a final is never changed
 * once made (the registry builds it whole and only reads it after).
 */
let lastFinal: ServerMessage | undefined;
let lastFinalText = '';

/** `JSON.stringify(frame)` of a frame not written by hand; a final's text once for its measure and its send. */
function json(frame: ServerMessage): string {
  if (frame.type !== 'final') return JSON.stringify(frame);
  if (frame !== lastFinal) {
    lastFinalText = JSON.stringify(frame);
    lastFinal = frame;
  }
  return lastFinalText;
}

/** The UTF-8 bytes of `JSON.stringify(frame)` (a score frame written straight into them). */
export function frameBytes(frame: ServerMessage): Buffer {
  return (frame.type === 'score' ? scoreBytes(frame) : undefined) ?? Buffer.from(json(frame), 'utf8');
}

/** `JSON.stringify(frame)`: a score frame decoded from {@link frameBytes}'s bytes (one hand-written encoder, not two). */
export function frameText(frame: ServerMessage): string {
  return (frame.type === 'score' ? scoreBytes(frame)?.toString('utf8') : undefined) ?? json(frame);
}
