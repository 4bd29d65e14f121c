/**
 * The multi-trial table printed AllPass@k, pass@k, CR, JCR, PCR and ATFR as point figures beside p_attempt's interval,
 * however few tasks they stood on. On the corpus with one model name for every run (`report --model m`: each agent's
 * runs of a task by different models become its attempts) three configurations repeat 2, 3 and 5 tasks: only the
 * 5-task one gets intervals, and only for its shares of tasks (its attempts, 2 or 3 a task, count as fewer than 5
 * tasks for the rates pooled over attempts, as for p_attempt). Every format shows them: the terminal, report.json,
 * reliability.csv, report.md and report.html.
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { wilsonInterval, type Interval } from '../../src/core/stats/interval.js';
import type { CorpusReport, ReliabilityRow } from '../../src/report/types.js';
import { cli, CORPUS } from '../cli/run-cli.js';
import { corpusReport } from './corpus-fixture.js';

/** Each interval beside the figure it belongs to, with its CSV column. */
const PAIRS: Array<[keyof ReliabilityRow, keyof ReliabilityRow, string]> = [
  ['allPassConditionalInterval', 'allPassConditional', 'allpass_conditional'],
  ['allPassConservativeInterval', 'allPassConservative', 'allpass_conservative'],
  ['passAtKInterval', 'passAtK', 'pass_at_k'],
  ['crInterval', 'cr', 'cr'],
  ['jcrInterval', 'jcr', 'jcr'],
  ['pcrInterval', 'pcr', 'pcr'],
  ['atfrInterval', 'atfr', 'atfr'],
];
const FIVE = 'swe-agent 1.1.0 + m';

describe('intervals of the multi-trial metrics in the report', () => {
  const report = corpusReport([CORPUS], { naming: { model: 'm' } });
  const cfgs = report.reliability.configurations;
  const five = cfgs.find((c) => c.configuration === FIVE)!;

  it('holds each figure in its interval, and gives none below 5 tasks', () => {
    expect(cfgs.map((c) => c.tasks)).toEqual([2, 3, 5]);
    for (const c of cfgs) {
      for (const [iv, x] of PAIRS) {
        expect(c, `${c.configuration} ${iv}`).toHaveProperty(iv);
        const interval = c[iv] as Interval | null;
        if (c.tasks < 5) expect(interval, `${c.configuration} ${iv}`).toBeNull();
        if (interval === null) continue;
        expect(interval.lo).toBeLessThanOrEqual(c[x] as number);
        expect(interval.hi).toBeGreaterThanOrEqual(c[x] as number);
      }
    }
  });

  it('counts the tasks of the 5-task configuration, not its 14 attempts', () => {
    expect(five).toMatchObject({ tasks: 5, planned: 14, allPassConservative: 0.6, passAtK: 1, jcr: 1, pAttemptInterval: null });
    expect(five.allPassConservativeInterval).toEqual(wilsonInterval(3, 5));
    expect(five.allPassConditionalInterval).toEqual(wilsonInterval(3, 5));
    expect(five.passAtKInterval).toEqual(wilsonInterval(5, 5));
    expect(five.jcrInterval).toEqual(wilsonInterval(5, 5));
    // Pooled over attempts (2 or 3 a task): as few tasks' worth as p_attempt, whose interval is null.
    expect(five).toMatchObject({ crInterval: null, pcrInterval: null, atfrInterval: null });
  });

  it('is deterministic', () => {
    expect(corpusReport([CORPUS], { naming: { model: 'm' } }).reliability.configurations).toEqual(cfgs);
  });

  it('shows them on the terminal, in report.json, reliability.csv, report.md and report.html', async () => {
    const out = mkdtempSync(path.join(tmpdir(), 'steplens-mtint-'));
    const r = await cli('report', '--model', 'm', '--out', out, CORPUS);
    const row = r.stdout
      .slice(r.stdout.indexOf('Multi-trial reliability'))
      .split('\n')
      .find((l) => l.startsWith(FIVE))!;
    expect(row).toMatch(/ 0\.786 \[-\] +0\.600 \[0\.231, 0\.882\] +1\.000 \[0\.566, 1\.000\] +1\.000 \[-\] +1\.000 \[0\.566, 1\.000\] +\d\.\d{3} \[-\] +\d\.\d{3} \[-\] +-$/);
    const two = r.stdout
      .slice(r.stdout.indexOf('Multi-trial reliability'))
      .split('\n')
      .find((l) => l.startsWith('mini-swe-agent 2.2.7 + m'))!;
    expect(two.match(/\[-\]/g)).toHaveLength(7);
    const doc = JSON.parse(readFileSync(path.join(out, 'report.json'), 'utf8')) as CorpusReport;
    expect(doc.reliability.configurations).toEqual(JSON.parse(JSON.stringify(cfgs)));
    const [head, ...lines] = readFileSync(path.join(out, 'reliability.csv'), 'utf8').trim().split('\n');
    const headers = head!.split(',');
    const csv = lines.find((l) => l.startsWith(FIVE))!.split(',');
    const at = (h: string) => csv[headers.indexOf(h)];
    for (const [, , col] of PAIRS) expect(headers.slice(headers.indexOf(col), headers.indexOf(col) + 3)).toEqual([col, `${col}_lo`, `${col}_hi`]);
    expect([at('allpass_conservative'), at('allpass_conservative_lo'), at('allpass_conservative_hi')]).toEqual(['0.6', '0.231', '0.882']);
    expect([at('cr_lo'), at('cr_hi'), at('pcr_lo'), at('atfr_hi')]).toEqual(['', '', '', '']);
    const md = readFileSync(path.join(out, 'report.md'), 'utf8');
    expect(md).toContain('| allpass_conservative | allpass_conservative_lo | allpass_conservative_hi |');
    expect(md).toMatch(/\| swe-agent 1\.1\.0 \+ m \|.*\| 0\.6 \| 0\.231 \| 0\.882 \|/);
    expect(readFileSync(path.join(out, 'report.html'), 'utf8')).toContain('allpass_conservative_lo');
  }, 120_000);
});
