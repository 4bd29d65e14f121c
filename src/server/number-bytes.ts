/**
 * The bytes of `String(x)` for a double, written without making the string. A score frame carries up to seven
 * doubles, most of them new values, and V8 writes a new double's shortest form in its runtime (~0.5 µs each; its
 * number-string cache serves only values it has seen lately): the score frame's largest cost after the scorer
 * (bench/README.md, "life21"). Here the shortest digits are found with double arithmetic made exact: the closest
 * decimal of 15, then 16, then 17 digits to x, each kept only when it reads back as x. Whatever this cannot settle
 * exactly (ties, powers of two between two 16-digit decimals, magnitudes outside [1e-5, 1e15)) is left to `String(x)`: the caller's fallback.
 *
 * Why it is exact: x·10^p is computed as hi + lo with no rounding (Dekker's product; JS has no fused multiply-add);
 * a decimal s·10^-p with s a double (every integer to 2^53, even ones to 2^54) reads back as x iff `s / 10^p === x`, since that division of two exact doubles
 * rounds as the parse of the decimal does; at most one 15-digit decimal reads back as a given double (their
 * spacing is wider than a double's rounding interval), so a shorter one, padded with zeros, is that one; and the
 * closest 17-digit decimal always reads back. That is ECMAScript's Number::toString: the fewest digits that read
 * back, the closest to x among them.
 */

/** 10^0 ... 10^22: the powers of ten that are exact doubles. */
const POW10: readonly number[] = Array.from({ length: 23 }, (_, i) => Number(`1e${i}`));
/** Veltkamp's splitter for a double's 53 bits: 2^27 + 1. */
const SPLIT = 134217729;
const MAX_EXACT = 9007199254740992;
/** How close to a half an exact sum's fraction may come before the rounding is left to V8 (ties, and error margin). */
const TIE_MARGIN = 1e-9;

/** The low part of the last {@link scaled} (module scratch: no pair object a call). */
let low = 0;
/** A frame's digits, most significant first (17 at most). */
const digits = new Uint8Array(17);

/** x·10^p as hi + {@link low}, exactly (Dekker's two-product). */
function scaled(x: number, p: number): number {
  const q = POW10[p]!;
  const hi = x * q;
  const cx = SPLIT * x;
  const xh = cx - (cx - x);
  const xl = x - xh;
  const cq = SPLIT * q;
  const qh = cq - (cq - q);
  const ql = q - qh;
  low = xh * qh - hi + xh * ql + xl * qh + xl * ql;
  return hi;
}

/** What {@link nearest} gives for an odd integer past 2^53 (not a double: hi is even there). */
const ODD_PAST_EXACT = -2;

/** The integer nearest to hi + lo (hi < 2^54, |lo| at most half hi's last place); -1 for a tie, or {@link ODD_PAST_EXACT}. */
function nearest(hi: number, lo: number): number {
  const whole = Math.floor(hi);
  const r = hi - whole + lo + 0.5;
  const up = Math.floor(r);
  if (r - up < TIE_MARGIN || up + 1 - r < TIE_MARGIN) return -1;
  if (whole >= MAX_EXACT && (up & 1) !== 0) return ODD_PAST_EXACT;
  return whole + up;
}

/**
 * The 16 digits hi ± 1 (hi = x·10^p rounded, an even integer past 2^53, lo the rest), which no double holds: 16
 * when they read back as x (written to {@link digits}), -1 when they do not, 0 when left to `String(x)`. They read
 * back when their distance to x·10^p is under half x's gap to its neighbours, scaled alike (exact: a power of two
 * times 10^p); a power of two has a narrower gap below, and is left to `String(x)`.
 */
function oddSixteen(x: number, hi: number, lo: number, p: number): number {
  const up = lo > 0 ? 1 : -1;
  let k = Math.floor(Math.log2(x));
  if (2 ** k > x) k--;
  else if (2 ** (k + 1) <= x) k++;
  if (2 ** k === x) return 0;
  const half = 2 ** (k - 53) * POW10[p]!;
  const distance = Math.abs(up - lo);
  if (Math.abs(distance - half) < TIE_MARGIN) return 0;
  if (distance > half) return -1;
  return spellNear(hi, up, 7, false) ? 16 : 0;
}

/**
 * Puts the digits of hi + add (hi an integer past 2^53, where doubles step by 2 or more; add a small integer) into
 * {@link digits}: `topDigits` then 9, computed as two int32-sized halves. False, nothing kept, when the sum has another
 * digit count, or ends in 0 where `noLastZero` asks (a shorter decimal then exists).
 */
function spellNear(hi: number, add: number, topDigits: number, noLastZero: boolean): boolean {
  let top = Math.floor(hi / 1e9);
  let bottom = hi - top * 1e9 + add;
  if (bottom < 0) {
    bottom += 1e9;
    top--;
  } else if (bottom >= 1e9) {
    bottom -= 1e9;
    top++;
  }
  if (top < POW10[topDigits - 1]! || top >= POW10[topDigits]! || (noLastZero && (bottom | 0) % 10 === 0)) return false;
  spellSmall(top | 0, 0, topDigits);
  spellSmall(bottom | 0, topDigits, 9);
  return true;
}

/** Puts the `count` digits of `v` (an integer below 10^count <= 10^9) into {@link digits} from `at`, in int32 steps. */
function spellSmall(v: number, at: number, count: number): void {
  for (let i = at + count - 1; i >= at; i--) {
    const rest = (v / 10) | 0;
    digits[i] = v - rest * 10;
    v = rest;
  }
}

/** Puts the `count` digits of integer `s` (< 10^count, up to 16) into {@link digits} from `at`. */
function spell(s: number, at: number, count: number): void {
  if (count <= 9) {
    spellSmall(s | 0, at, count);
    return;
  }
  let top = Math.floor(s / 1e9);
  let bottom = s - top * 1e9;
  if (bottom < 0) {
    bottom += 1e9;
    top--;
  }
  spellSmall(top | 0, at, count - 9);
  spellSmall(bottom | 0, at + count - 9, 9);
}

/** True when integer `s` (a double below 2^54) ends in 0 (`%` on doubles is a C call in V8). */
function endsInZero(s: number): boolean {
  return s - Math.floor(s / 10) * 10 === 0;
}

/** The number of significant digits of x, found in {@link digits}; 0 when left to `String(x)`. `x` in [1e-5, 1e15). */
function shortest(x: number, e: number): number {
  // 15 digits: at most one such decimal reads back as x, within 0.11 of x·10^p, which doubles compute within 0.07.
  const p15 = 15 - e;
  const scale15 = POW10[p15]!;
  const s15 = Math.round(x * scale15);
  if (s15 / scale15 === x) {
    if (s15 < 1e14 || s15 >= 1e15) return 0;
    let t = s15;
    let n = 15;
    while (endsInZero(t)) {
      t /= 10;
      n--;
    }
    spell(t, 0, n);
    return n;
  }
  // 16 digits: two may read back, so the closest, found exactly.
  const p16 = 16 - e;
  const scale16 = POW10[p16]!;
  const hi16 = scaled(x, p16);
  const s16 = nearest(hi16, low);
  if (s16 === ODD_PAST_EXACT) {
    const k = oddSixteen(x, hi16, low, p16);
    if (k >= 0) return k;
  } else if (s16 < 1e15 || s16 >= 1e16) {
    return 0;
  } else if (s16 / scale16 === x) {
    // A last 0 would make a 15-digit decimal that reads back, which the step above would have found.
    if (endsInZero(s16)) return 0;
    spell(s16, 0, 16);
    return 16;
  }
  // 17 digits always read back; the closest, held as hi + t (hi an integer past 2^53).
  const hi = scaled(x, 17 - e);
  if (hi < 1e16 || hi >= 1e17) return 0;
  const r = low + 0.5;
  const t = Math.floor(r);
  if (r - t < TIE_MARGIN || t + 1 - r < TIE_MARGIN) return 0;
  return spellNear(hi, t, 8, true) ? 17 : 0;
}

/**
 * Writes `String(x)` for a finite double at `p` and returns the end, or -1 when x is left to `String(x)` (outside
 * [1e-5, 1e15) in magnitude, or an exact tie): nothing is written then.
 */
export function putDouble(b: Uint8Array, p: number, x: number): number {
  const a = x < 0 ? -x : x;
  if (!(a >= 1e-5 && a < 1e15)) return -1;
  // e: the decimal exponent, 10^(e-1) <= a < 10^e; one off is caught by the digit count's check in shortest().
  let e = 1;
  if (a >= 1) {
    while (a >= POW10[e]!) e++;
  } else {
    e = 0;
    while (a * POW10[1 - e]! < 1) e--;
  }
  const k = shortest(a, e);
  if (k === 0) return -1;
  // The value is 0.d1d2...dk × 10^e (shortest() kept only digit counts that agree with e).
  if (x < 0) b[p++] = 0x2d; // -
  if (e <= 0) {
    b[p++] = 0x30; // 0
    b[p++] = 0x2e; // .
    for (let i = e; i < 0; i++) b[p++] = 0x30;
    for (let i = 0; i < k; i++) b[p++] = 0x30 + digits[i]!;
  } else {
    for (let i = 0; i < k; i++) {
      if (i === e) b[p++] = 0x2e;
      b[p++] = 0x30 + digits[i]!;
    }
    for (let i = k; i < e; i++) b[p++] = 0x30;
  }
  return p;
}
