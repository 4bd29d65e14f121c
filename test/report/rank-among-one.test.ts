/**
 * Review: `report` on the packed corpus printed "rank 1" for the only source with >= 10 runs (--min-runs): a rank
 * among one source is no ranking. Below 2 qualifying entries none is ranked (rankWithTies), and the notes say why.
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { rankWithTies } from '../../src/core/stats/ranking.js';
import type { CorpusReport } from '../../src/report/types.js';
import { cli, CORPUS } from '../cli/run-cli.js';

const SOURCE = 'mini-swe-agent 2.2.7 + deepseek/deepseek-chat';

describe('a rank among one source', () => {
  it('is no rank (rankWithTies); two qualifying entries are ranked', () => {
    const iv = (lo: number, hi: number) => ({ lo, hi, level: 0.95 });
    const one = rankWithTies(
      [
        { estimate: 0.75, interval: iv(0.47, 0.91), n: 12 },
        { estimate: 1, interval: iv(0.44, 1), n: 3 },
      ],
      10,
    );
    expect(one).toEqual([
      { rank: null, tied: false, unranked: 'the only entry with n >= 10: a rank needs 2' },
      { rank: null, tied: false, unranked: 'n 3 < 10' },
    ]);
    const two = rankWithTies(
      [
        { estimate: 0.75, interval: iv(0.47, 0.91), n: 12 },
        { estimate: 0.2, interval: iv(0.05, 0.4), n: 10 },
      ],
      10,
    );
    expect(two.map((r) => r.rank)).toEqual([1, 2]);
  });

  it('is not printed by report on the corpus; the text and the notes of report.md / report.html say why', async () => {
    const out = mkdtempSync(path.join(tmpdir(), 'steplens-rank1-'));
    const r = await cli('report', '--out', out, CORPUS);
    const doc = JSON.parse(readFileSync(path.join(out, 'report.json'), 'utf8')) as CorpusReport;
    const m = doc.models.find((x) => x.source === SOURCE)!;
    expect(m.evaluated).toBeGreaterThanOrEqual(10);
    expect(m).toMatchObject({ rankPass: null, rankQuality: null, rankShift: null, unrankedPass: 'the only entry with n >= 10: a rank needs 2' });
    expect(doc.models.every((x) => x.rankPass === null && x.rankQuality === null)).toBe(true);
    const row = r.stdout.split('\n').find((l) => l.startsWith('mini-swe-agent 2.2.7   deepseek/deepseek-chat '))!;
    // evaluated 12, its pass rate and interval, rank "-"; scored 12, quality and interval, rank "-", shift "-".
    expect(row).toMatch(/ 12 +\d+\.\d % \[\d+\.\d, \d+\.\d\] +- +12 +\d+\.\d \[\d+\.\d, \d+\.\d\] +- +- /);
    const note = `No source is ranked by pass rate: only ${SOURCE} has >= 10 evaluated runs (--min-runs) and an interval, and a rank among one source is no ranking (a rank needs 2 sources).`;
    expect(r.stdout).toContain(`\n${note}\n`);
    expect(r.stdout).toContain('No source is ranked by mean quality: only');
    expect(readFileSync(path.join(out, 'report.md'), 'utf8')).toContain(`\n- ${note}\n`);
    expect(readFileSync(path.join(out, 'report.html'), 'utf8')).toContain('No source is ranked by pass rate: only');
  }, 120_000);

  it("is said under each models table, the --by-reference kinds' too (not only in the notes)", async () => {
    const out = mkdtempSync(path.join(tmpdir(), 'steplens-rank1-kinds-'));
    const r = await cli('report', '--by-reference', '--out', out, CORPUS);
    const doc = JSON.parse(readFileSync(path.join(out, 'report.json'), 'utf8')) as CorpusReport;
    const free = doc.byReference!.find((b) => b.reference === 'reference-free')!;
    expect(free.models.filter((m) => m.evaluated >= 10)).toHaveLength(1);
    const md = readFileSync(path.join(out, 'report.md'), 'utf8');
    const section = (title: string) => md.slice(md.indexOf(`## ${title}`), md.indexOf('\n## ', md.indexOf(`## ${title}`) + 1));
    expect(section('Models (agent + model): pass rate vs. process quality\n')).toContain('No source is ranked by pass rate: only');
    expect(section('Models (agent + model): pass rate vs. process quality, scored reference-free')).toContain('No source is ranked by pass rate: only');
    const text = r.stdout.slice(r.stdout.indexOf('Models (agent + model), scored reference-free'));
    expect(text.slice(0, text.indexOf('\n\n', text.indexOf('No source')))).toContain('No source is ranked by mean quality: only');
  }, 120_000);
});
