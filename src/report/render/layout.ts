/**
 * Chart layout helpers: text widths (so labels are placed, wrapped and checked for overlaps
 * without a browser), round axis ticks, and the box every text of a chart occupies.
 * Widths are those of DejaVu Sans / Verdana-like faces, rounded up: a layout that fits with
 * them fits with narrower sans-serif fonts too.
 */

/** Advance widths in em of the characters that differ much from the average. */
const NARROW = new Set([...`iljtfr.,:;'|!()[]{} \``]);
const WIDE = new Set([...'mwMW%@&']);

/** Estimated width in px of `s` at `size` px. */
export function textWidth(s: string, size: number): number {
  let em = 0;
  for (const c of s) {
    if (NARROW.has(c)) em += 0.36;
    else if (WIDE.has(c)) em += 0.95;
    else if (c >= 'A' && c <= 'Z') em += 0.72;
    else if (c.charCodeAt(0) > 0x2000) em += 0.8;
    else em += 0.62;
  }
  return em * size;
}

/** A text's box: left, top, width, height (px). */
export interface Box {
  x: number;
  y: number;
  w: number;
  h: number;
}

export type Anchor = 'start' | 'middle' | 'end';

/** The box of a text drawn at baseline (x, y) with `anchor`; `rotate` -90 turns it about (x, y). */
export function textBox(x: number, y: number, s: string, size: number, anchor: Anchor, rotate = 0): Box {
  const w = textWidth(s, size);
  const left = anchor === 'start' ? x : anchor === 'middle' ? x - w / 2 : x - w;
  const box = { x: left, y: y - 0.8 * size, w, h: size };
  if (rotate === 0) return box;
  // -90: the text runs upwards from (x, y); its box is the unrotated one turned about (x, y).
  return { x: x - (y - box.y), y: y - (box.x + w - x), w: box.h, h: w };
}

/** True when two boxes overlap (touching edges do not count). */
export function overlaps(a: Box, b: Box): boolean {
  return a.x < b.x + b.w && b.x < a.x + a.w && a.y < b.y + b.h && b.y < a.y + a.h;
}

/**
 * Round ticks from 0 to at least `max`: steps of 1, 2, 2.5 or 5 × 10^k, about `count` of them
 * (`integer`: whole steps only, for counts). The last tick is the axis end.
 */
export function niceTicks(max: number, count = 5, integer = false): number[] {
  const top = max > 0 ? max : 1;
  const raw = top / count;
  const mag = 10 ** Math.floor(Math.log10(raw));
  const steps = [1, 2, 2.5, 5, 10].map((m) => m * mag).filter((s) => !integer || (s >= 1 && Number.isInteger(s)));
  const step = steps.find((s) => s >= raw) ?? (integer ? Math.max(1, Math.ceil(raw)) : 10 * mag);
  const out: number[] = [];
  for (let i = 0; i * step < top + step * 1e-9 || out.length < 2; i++) out.push(Number((i * step).toPrecision(12)));
  if (out[out.length - 1]! < top - 1e-12) out.push(Number((out.length * step).toPrecision(12)));
  return out;
}

/**
 * Round ticks spanning [lo, hi] (steps as `niceTicks`), widened to at least `minSpan` about their middle and kept
 * within [floor, ceil]: an axis fitted to the data, so that short intervals on a wide scale stay visible.
 */
export function niceSpan(lo: number, hi: number, { count = 5, minSpan = 0, floor = -Infinity, ceil = Infinity } = {}): number[] {
  const mid = (lo + hi) / 2;
  const half = Math.max(hi - lo, minSpan, 1e-9) / 2;
  const [a0, b0] = [Math.max(floor, mid - half), Math.min(ceil, mid + half)];
  const raw = (b0 - a0) / count;
  const mag = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 2.5, 5, 10].map((m) => m * mag).find((s) => s >= raw) ?? 10 * mag;
  const a = Math.max(floor, Math.floor(a0 / step) * step),
    b = Math.min(ceil, Math.ceil(b0 / step) * step);
  const out: number[] = [];
  for (let v = a; v < b + step * 1e-9; v += step) out.push(Number(Math.min(v, b).toPrecision(12)));
  if (out[out.length - 1]! < b - 1e-9) out.push(Number(b.toPrecision(12)));
  return out;
}

/**
 * Splits `s` into lines at most `width` px wide at `size`, breaking after `/`, `_`, `-`, space or
 * `.` where it can and inside a word only when one piece is too long; nothing is cut off.
 */
export function wrapText(s: string, width: number, size: number): string[] {
  const pieces = s.match(/[^/_\-\s.]+[/_\-\s.]*|[/_\-\s.]+/g) ?? [s];
  const lines: string[] = [];
  let cur = '';
  const push = (piece: string) => {
    if (cur === '' || textWidth(cur + piece, size) <= width) {
      cur += piece;
      return;
    }
    lines.push(cur.trimEnd());
    cur = piece.trimStart();
  };
  for (const piece of pieces) {
    if (textWidth(piece, size) <= width) {
      push(piece);
      continue;
    }
    for (const c of piece) push(c);
  }
  if (cur !== '') lines.push(cur.trimEnd());
  return lines;
}

/**
 * Places a round label of radius `r` near each point (x, y) without overlapping the labels placed
 * before it: on the point when free, else on rings around it (a leader line shows where it
 * belongs). Labels stay inside `area` and off every box of `avoid` (error bars, the points themselves).
 * Returns the label centres, aligned with `points`.
 */
export function placeLabels(points: ReadonlyArray<[number, number]>, r: number, area: Box, avoid: readonly Box[] = []): Array<[number, number]> {
  const placed: Array<[number, number]> = [];
  const clear = (cx: number, cy: number, b: Box) => Math.hypot(cx - Math.min(b.x + b.w, Math.max(b.x, cx)), cy - Math.min(b.y + b.h, Math.max(b.y, cy))) > r;
  const free = (cx: number, cy: number) =>
    cx - r >= area.x &&
    cx + r <= area.x + area.w &&
    cy - r >= area.y &&
    cy + r <= area.y + area.h &&
    placed.every(([px, py]) => Math.hypot(px - cx, py - cy) >= 2 * r + 2) &&
    avoid.every((b) => clear(cx, cy, b));
  for (const [x, y] of points) {
    let spot: [number, number] | undefined = free(x, y) ? [x, y] : undefined;
    for (let ring = 1; spot === undefined && ring <= 12; ring++) {
      const d = ring * (2 * r + 3);
      const n = 8 * ring;
      for (let k = 0; k < n && spot === undefined; k++) {
        const a = -Math.PI / 2 + (2 * Math.PI * k) / n;
        const cx = x + d * Math.cos(a),
          cy = y + d * Math.sin(a);
        if (free(cx, cy)) spot = [cx, cy];
      }
    }
    placed.push(spot ?? [x, y]);
  }
  return placed;
}
