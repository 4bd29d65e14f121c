/**
 * Review: `report` printed `scored passing trajectories: 35 (Ideal 25.7 %, ...)` pooled over every source with
 * nothing saying so and no n per source. The line now says it is pooled over how many sources and where each
 * source's own shares are; the terminal models table gives each source's n (scored passing) beside its shares.
 * audit19: each share, pooled and per source, carries its interval (the table printed "1" for 2 of 2 runs of one task).
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { CorpusReport } from '../../src/report/types.js';
import { cli, CORPUS } from '../cli/run-cli.js';

describe('the tier shares of passing runs', () => {
  it('are labelled pooled over sources in the text, report.md and report.html, with per-source n in the models table', async () => {
    const out = mkdtempSync(path.join(tmpdir(), 'steplens-tiers-'));
    const r = await cli('report', '--out', out, CORPUS);
    const doc = JSON.parse(readFileSync(path.join(out, 'report.json'), 'utf8')) as CorpusReport;
    const withPasses = doc.models.filter((m) => m.scoredPassing > 0);
    const n = withPasses.reduce((s, m) => s + m.scoredPassing, 0);
    expect(withPasses.length).toBeGreaterThan(1);
    const expected = new RegExp(
      `^scored passing trajectories, pooled over ${withPasses.length} sources: ${n} \\(Ideal \\d+\\.\\d % (?:\\[-\\]|\\[\\d+\\.\\d, \\d+\\.\\d\\]), Solid \\d+\\.\\d % (?:\\[-\\]|\\[\\d+\\.\\d, \\d+\\.\\d\\]), Lucky \\d+\\.\\d % (?:\\[-\\]|\\[\\d+\\.\\d, \\d+\\.\\d\\]); Wilson 95 % with the tasks' design effect\\); per source: the models table \\(scored passing, ideal, solid, lucky\\)$`,
    );
    expect(r.stdout.split('\n').filter((l) => l.startsWith('scored passing trajectories'))).toEqual([expect.stringMatching(expected)]);
    const md = readFileSync(path.join(out, 'report.md'), 'utf8');
    expect(md.split('\n').filter((l) => l.startsWith('- scored passing trajectories'))).toEqual([expect.stringMatching(new RegExp(`^- ${expected.source.slice(1)}`))]);
    expect(readFileSync(path.join(out, 'report.html'), 'utf8')).toContain(`<li>scored passing trajectories, pooled over ${withPasses.length} sources: ${n} (`);
    // The terminal models table: a `scored passing` column, each source's n, before its ideal / solid / lucky shares.
    const lines = r.stdout.split('\n');
    const head = lines.findIndex((l) => l.startsWith('agent ') && l.includes('quality [95% CI]'));
    expect(lines[head]).toMatch(/ shift +scored passing +ideal \[95% CI\] +solid \[95% CI\] +lucky \[95% CI\] /);
    const at = lines[head]!.indexOf('scored passing');
    const column = lines.slice(head + 1, head + 1 + doc.models.length).map((l) => Number(l.slice(at, at + 'scored passing'.length).trim()));
    expect(column.reduce((s, x) => s + x, 0)).toBe(n);
  }, 120_000);
});
