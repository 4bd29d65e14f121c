/**
 * audit26 (round 5 left it): docs/forecast.md's older tables printed per-signal AUROCs and ECEs as bare points
 * (`0.654`) beside tables that give each figure its interval, without saying which were which. A table with a bare
 * figure (0.xxx, no interval) must now say plainly that its figures are points (in its header, a row's label, or the
 * lines around it: "point", "points", "no intervals"), or carry the intervals.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

const BARE = /^[−+-]?[01]\.\d{3}$/;
const SAYS = /\bpoints?\b|no intervals?/i;

interface Table {
  line: number;
  bare: number;
  says: boolean;
}

function tables(text: string): Table[] {
  const lines = text.split('\n');
  const out: Table[] = [];
  for (let i = 0; i + 1 < lines.length; i++) {
    if (!lines[i]!.startsWith('|') || !/^\|\s*:?-/.test(lines[i + 1]!)) continue;
    let j = i + 2;
    while (j < lines.length && lines[j]!.startsWith('|')) j++;
    const rows = lines.slice(i + 2, j);
    const bare = rows.flatMap((r) => r.split('|').slice(1, -1)).filter((c) => BARE.test(c.trim().replace(/\*/g, ''))).length;
    const around = [...lines.slice(Math.max(0, i - 6), i + 1), ...rows.map((r) => r.split('|')[1] ?? ''), ...lines.slice(j, j + 4)].join('\n');
    out.push({ line: i + 1, bare, says: SAYS.test(around) });
    i = j;
  }
  return out;
}

describe('docs/forecast.md says which figures are points', () => {
  it('every table with a bare AUROC or ECE says its figures are points', () => {
    const found = tables(readFileSync('docs/forecast.md', 'utf8'));
    expect(found.filter((t) => t.bare > 0).length).toBeGreaterThan(5);
    expect(found.filter((t) => t.bare > 0 && !t.says).map((t) => `line ${t.line}: ${t.bare} bare figures`)).toEqual([]);
  });
});
