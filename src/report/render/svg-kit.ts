/** Minimal SVG building blocks (hand-written strings, no dependencies). */

/** Escapes text for XML content and attribute values. */
export function esc(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

const n = (x: number) => Number(x.toFixed(2));

export function svgDoc(width: number, height: number, title: string, body: string[]): string {
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="sans-serif" font-size="12">`,
    `<title>${esc(title)}</title>`,
    `<rect width="${width}" height="${height}" fill="#ffffff"/>`,
    `<text x="${n(width / 2)}" y="20" text-anchor="middle" font-size="15" font-weight="bold">${esc(title)}</text>`,
    ...body,
    '</svg>',
    '',
  ].join('\n');
}

export function rect(x: number, y: number, w: number, h: number, fill: string, tip?: string): string {
  const t = tip ? `<title>${esc(tip)}</title>` : '';
  return `<rect x="${n(x)}" y="${n(y)}" width="${n(Math.max(0, w))}" height="${n(Math.max(0, h))}" fill="${fill}">${t}</rect>`;
}

export function line(x1: number, y1: number, x2: number, y2: number, stroke = '#333', dash = false): string {
  return `<line x1="${n(x1)}" y1="${n(y1)}" x2="${n(x2)}" y2="${n(y2)}" stroke="${stroke}"${dash ? ' stroke-dasharray="4 3"' : ''}/>`;
}

export function text(x: number, y: number, s: string, anchor: 'start' | 'middle' | 'end' = 'start', extra = ''): string {
  return `<text x="${n(x)}" y="${n(y)}" text-anchor="${anchor}"${extra ? ` ${extra}` : ''}>${esc(s)}</text>`;
}

export function circle(x: number, y: number, r: number, fill: string, tip?: string): string {
  const t = tip ? `<title>${esc(tip)}</title>` : '';
  return `<circle cx="${n(x)}" cy="${n(y)}" r="${r}" fill="${fill}" fill-opacity="0.8">${t}</circle>`;
}

/** A legend row of coloured squares with labels, starting at (x, y). */
export function legend(x: number, y: number, items: readonly [string, string][]): string[] {
  return items.flatMap(([label, color], i) => [rect(x + i * 110, y - 10, 12, 12, color), text(x + i * 110 + 16, y, label)]);
}

/** Evenly spaced "nice" tick values from 0 to at least `max`. */
export function ticks(max: number, count = 5): number[] {
  const step = Math.max(1, Math.ceil(max / count));
  const out: number[] = [];
  for (let v = 0; v <= Math.max(max, step); v += step) out.push(v);
  return out;
}
