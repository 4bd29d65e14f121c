/**
 * Overlap of what an SVG draws, from what the browser measured: a text's box in its own coordinates (getBBox)
 * and its matrix to the SVG's (getCTM), so a rotated label is its true rotated rectangle, not the
 * axis-aligned box around it. Separating-axis test for two rectangles; a circle hits a rectangle when its
 * centre is inside or an edge is nearer than its radius.
 */
export type Point = readonly [number, number];

/** A text element as measured: box [x, y, w, h] and matrix [a, b, c, d, e, f]. */
export interface MeasuredBox {
  text: string;
  box: readonly [number, number, number, number];
  m: readonly [number, number, number, number, number, number];
}

export interface MeasuredCircle {
  cx: number;
  cy: number;
  r: number;
}

/** The four corners of a measured box in SVG coordinates. */
export function corners({ box: [x, y, w, h], m: [a, b, c, d, e, f] }: MeasuredBox): Point[] {
  return (
    [
      [x, y],
      [x + w, y],
      [x + w, y + h],
      [x, y + h],
    ] as const
  ).map(([px, py]) => [a * px + c * py + e, b * px + d * py + f] as const);
}

const edges = (p: readonly Point[]) => p.map((q, i) => [q, p[(i + 1) % p.length]!] as const);
const normals = (p: readonly Point[]): Point[] => edges(p).map(([q, r]) => [q[1] - r[1], r[0] - q[0]] as const);
function project(p: readonly Point[], [ax, ay]: Point): [number, number] {
  const v = p.map(([x, y]) => x * ax + y * ay);
  return [Math.min(...v), Math.max(...v)];
}

/** True when two convex polygons share area (touching edges do not count). */
export function polygonsOverlap(p: readonly Point[], q: readonly Point[]): boolean {
  return [...normals(p), ...normals(q)].every((axis) => {
    const [a0, a1] = project(p, axis);
    const [b0, b1] = project(q, axis);
    return a0 < b1 && b0 < a1;
  });
}

function distanceToSegment([px, py]: Point, [[ax, ay], [bx, by]]: readonly [Point, Point]): number {
  const dx = bx - ax;
  const dy = by - ay;
  const t = Math.max(0, Math.min(1, ((px - ax) * dx + (py - ay) * dy) / (dx * dx + dy * dy || 1)));
  return Math.hypot(px - ax - t * dx, py - ay - t * dy);
}

/** True when a circle and a convex polygon share area. */
export function circleOverlaps(c: MeasuredCircle, p: readonly Point[]): boolean {
  const centre: Point = [c.cx, c.cy];
  const inside = normals(p).every((axis) => {
    const [lo, hi] = project(p, axis);
    const v = centre[0] * axis[0] + centre[1] * axis[1];
    return v >= lo && v <= hi;
  });
  return inside || edges(p).some((e) => distanceToSegment(centre, e) < c.r);
}

/** Every label that covers a circle or another label, described. */
export function labelOverlaps(labels: readonly MeasuredBox[], others: readonly MeasuredBox[], circles: readonly MeasuredCircle[]): string[] {
  const out: string[] = [];
  const polys = labels.map((l) => ({ text: l.text, p: corners(l) }));
  const rest = others.map((l) => ({ text: l.text, p: corners(l) }));
  polys.forEach((l, i) => {
    for (const c of circles) if (circleOverlaps(c, l.p)) out.push(`label "${l.text}" covers the node circle at (${c.cx}, ${c.cy})`);
    for (const o of [...polys.slice(i + 1), ...rest]) if (polygonsOverlap(l.p, o.p)) out.push(`label "${l.text}" covers label "${o.text}"`);
  });
  return out;
}
