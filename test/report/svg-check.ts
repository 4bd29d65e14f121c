/**
 * Checks a chart the way a reader sees it: well-formed SVG (an XML parser accepts it), every text
 * inside the picture, and no two texts overlapping. Text boxes come from the same width estimate
 * the charts lay themselves out with (src/report/render/layout.ts), which errs on the wide side.
 */
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { expect } from 'vitest';
import { overlaps, textBox, type Anchor, type Box } from '../../src/report/render/layout.js';

interface SvgText {
  text: string;
  box: Box;
}

type Attrs = Record<string, string | undefined> & { '#text'?: string };

/** The texts of an SVG with their boxes (top-level `<text>` elements, as the charts write them). */
export function svgTexts(svg: string): { width: number; height: number; texts: SvgText[] } {
  const valid = XMLValidator.validate(svg);
  expect(valid, `not well-formed: ${JSON.stringify(valid)}`).toBe(true);
  const doc = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '', parseTagValue: false, isArray: (name) => name === 'text' }).parse(svg) as { svg: Attrs & { text?: Attrs[] } };
  const root = doc.svg;
  const size0 = Number(root['font-size'] ?? 16);
  const texts = (root.text ?? []).map((t) => {
    const s = String(t['#text'] ?? '')
      .replace(/&lt;/g, '<')
      .replace(/&gt;/g, '>')
      .replace(/&quot;/g, '"')
      .replace(/&amp;/g, '&');
    const rot = /rotate\((-?[\d.]+)/.exec(t.transform ?? '');
    return { text: s, box: textBox(Number(t.x), Number(t.y), s, Number(t['font-size'] ?? size0), (t['text-anchor'] ?? 'start') as Anchor, rot ? Number(rot[1]) : 0) };
  });
  return { width: Number(root.width), height: Number(root.height), texts };
}

/** Well-formed, every text inside the picture, no two texts overlapping. */
export function expectReadableSvg(svg: string, name: string): void {
  const { width, height, texts } = svgTexts(svg);
  expect(texts.length, `${name}: no text`).toBeGreaterThan(2);
  for (const t of texts) {
    const b = t.box;
    expect(b.x >= 0 && b.y >= 0 && b.x + b.w <= width && b.y + b.h <= height, `${name}: "${t.text}" sticks out of the ${width}x${height} picture (${JSON.stringify(b)})`).toBe(true);
  }
  const clashes: string[] = [];
  for (let i = 0; i < texts.length; i++) {
    for (let j = i + 1; j < texts.length; j++) if (overlaps(texts[i]!.box, texts[j]!.box)) clashes.push(`"${texts[i]!.text}" / "${texts[j]!.text}"`);
  }
  expect(clashes, `${name}: overlapping texts`).toEqual([]);
}
