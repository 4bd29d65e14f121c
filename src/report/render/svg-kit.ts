/** Minimal SVG building blocks (hand-written strings, no dependencies); colours from palette.ts. */
import { textWidth, wrapText } from './layout.js';
import { PALETTE } from './palette.js';

/** One chart of the report: its file name and SVG text. */
export interface Chart {
  file: string;
  svg: string;
}

/** Escapes text for XML content and attribute values. */
export function esc(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

const n = (x: number) => Number(x.toFixed(2));

/** Font size of the title `svgDoc` draws, and the y of its baseline. */
export const TITLE_SIZE = 15;
export const TITLE_Y = 22;

export function svgDoc(width: number, height: number, title: string, body: string[]): string {
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${n(width)}" height="${n(height)}" viewBox="0 0 ${n(width)} ${n(height)}" font-family="DejaVu Sans, Verdana, sans-serif" font-size="12" fill="${PALETTE.text}">`,
    `<title>${esc(title)}</title>`,
    `<rect width="${n(width)}" height="${n(height)}" fill="${PALETTE.background}"/>`,
    `<text x="${n(width / 2)}" y="${TITLE_Y}" text-anchor="middle" font-size="${TITLE_SIZE}" font-weight="bold">${esc(title)}</text>`,
    ...body,
    '</svg>',
    '',
  ].join('\n');
}

export function rect(x: number, y: number, w: number, h: number, fill: string, tip?: string, extra = ''): string {
  const t = tip ? `<title>${esc(tip)}</title>` : '';
  return `<rect x="${n(x)}" y="${n(y)}" width="${n(Math.max(0, w))}" height="${n(Math.max(0, h))}" fill="${fill}"${extra ? ` ${extra}` : ''}>${t}</rect>`;
}

export function line(x1: number, y1: number, x2: number, y2: number, stroke: string = PALETTE.axis, dash = false, width = 1): string {
  return `<line x1="${n(x1)}" y1="${n(y1)}" x2="${n(x2)}" y2="${n(y2)}" stroke="${stroke}"${width !== 1 ? ` stroke-width="${width}"` : ''}${dash ? ' stroke-dasharray="5 3"' : ''}/>`;
}

/** A polyline through the points (stroke only). */
export function polyline(points: ReadonlyArray<[number, number]>, stroke: string, width = 1.5, dash = false): string {
  const pts = points.map(([x, y]) => `${n(x)},${n(y)}`).join(' ');
  return `<polyline points="${pts}" fill="none" stroke="${stroke}" stroke-width="${width}" stroke-linejoin="round"${dash ? ' stroke-dasharray="6 4"' : ''}/>`;
}

/** Text with its baseline at y; `size` in px (default: the document's 12). */
export function text(x: number, y: number, s: string, anchor: 'start' | 'middle' | 'end' = 'start', extra = '', size?: number): string {
  const sz = size !== undefined ? ` font-size="${size}"` : '';
  return `<text x="${n(x)}" y="${n(y)}" text-anchor="${anchor}"${sz}${extra ? ` ${extra}` : ''}>${esc(s)}</text>`;
}

export function circle(x: number, y: number, r: number, fill: string, tip?: string, extra = 'fill-opacity="0.85"'): string {
  const t = tip ? `<title>${esc(tip)}</title>` : '';
  return `<circle cx="${n(x)}" cy="${n(y)}" r="${r}" fill="${fill}"${extra ? ` ${extra}` : ''}>${t}</circle>`;
}

/** Marker shapes, so series differ by more than colour. */
export type Shape = 'circle' | 'square' | 'diamond' | 'triangle';

export function marker(shape: Shape, x: number, y: number, r: number, fill: string, tip?: string, extra = ''): string {
  const t = tip ? `<title>${esc(tip)}</title>` : '';
  const e = extra ? ` ${extra}` : '';
  switch (shape) {
    case 'circle':
      return `<circle cx="${n(x)}" cy="${n(y)}" r="${r}" fill="${fill}"${e}>${t}</circle>`;
    case 'square':
      return `<rect x="${n(x - r)}" y="${n(y - r)}" width="${2 * r}" height="${2 * r}" fill="${fill}"${e}>${t}</rect>`;
    case 'diamond':
      return `<polygon points="${n(x)},${n(y - r * 1.3)} ${n(x + r * 1.3)},${n(y)} ${n(x)},${n(y + r * 1.3)} ${n(x - r * 1.3)},${n(y)}" fill="${fill}"${e}>${t}</polygon>`;
    case 'triangle':
      return `<polygon points="${n(x)},${n(y - r * 1.3)} ${n(x + r * 1.2)},${n(y + r * 0.9)} ${n(x - r * 1.2)},${n(y + r * 0.9)}" fill="${fill}"${e}>${t}</polygon>`;
  }
}

/** One legend entry: a label and its swatch (a filled square, or a marker shape, optionally on a line). */
export interface LegendItem {
  label: string;
  color: string;
  shape?: Shape;
  /** A hollow marker (white inside, coloured outline), as the series draws it. */
  hollow?: boolean;
  line?: 'solid' | 'dashed';
}

const SWATCH = 22;
const GAP = 18;

/** Width of a legend row of `items` at `size` px. */
export function legendWidth(items: readonly LegendItem[], size = 12): number {
  return items.reduce((w, it, i) => w + SWATCH + textWidth(it.label, size) + (i > 0 ? GAP : 0), 0);
}

/** A legend row starting at (x, baseline y), entries spaced by their measured widths. */
export function legend(x: number, y: number, items: readonly LegendItem[], size = 12): string[] {
  const out: string[] = [];
  let cx = x;
  for (const it of items) {
    const mid = y - size * 0.35;
    if (it.line) out.push(line(cx, mid, cx + 18, mid, it.color, it.line === 'dashed', 2));
    const swatch =
      it.shape === undefined
        ? rect(cx + 3, mid - 6, 12, 12, it.color)
        : it.hollow
          ? marker(it.shape, cx + 9, mid, 4, '#ffffff', undefined, `stroke="${it.color}" stroke-width="1.8"`)
          : marker(it.shape, cx + 9, mid, 4.5, it.color);
    out.push(swatch);
    out.push(text(cx + SWATCH, y, it.label, 'start', '', size));
    cx += SWATCH + textWidth(it.label, size) + GAP;
  }
  return out;
}

/** Subtitle lines under the title, centred, wrapped to `width` (11 px, 14 px apart, first baseline at `y`). */
export function subtitle(s: string, width: number, y: number, extra = ''): { body: string[]; height: number } {
  const lines = wrapText(s, width - 24, 11);
  return { body: lines.map((l, i) => text(width / 2, y + i * 14, l, 'middle', extra, 11)), height: lines.length * 14 };
}
