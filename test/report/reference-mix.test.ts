/**
 * A source whose passing and failing runs were scored against different kinds of reference is named in a warning
 * (terminal and Markdown headline: a line of its own when it counts in the within-source mean, else in one line with the others) and in report.json's `referenceKindMix`: its AUROC then partly measures the
 * reference kind. On the 15 real SWE-agent runs of multi-swe-bench, jackson-databind-3701 and -4486 have 3 passing
 * runs (in-folder PTAs) and jackson-core-1142 does not (reference-free).
 */
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { referenceKindMixLines } from '../../src/report/reference-mix.js';
import { markdownReport, terminalSummary } from '../../src/report/render/summary.js';
import type { CorpusReport } from '../../src/report/types.js';
import { CORPUS_DIR } from '../fixtures/corpus.js';
import { corpusReport } from './corpus-fixture.js';

const JAVA = path.join(CORPUS_DIR, 'multi-swe-bench__experiments');
const source = (model: string) => `swe-agent + (model not named) 20240825_SWE-agent_${model}`;
const kinds = (inFolder: number, referenceFree: number) => ({ 'in-folder': inFolder, external: 0, 'reference-free': referenceFree });

let report: CorpusReport;
beforeAll(() => {
  report = corpusReport([JAVA]);
}, 120_000);

describe('report: sources scored against more than one kind of reference', () => {
  it('lists each source whose scored passing and failing runs span two kinds, with its counts per kind', () => {
    expect(report.referenceKindMix).toEqual([
      { source: source('deepseek-chat-v2'), passing: kinds(1, 0), failing: kinds(1, 1) },
      { source: source('doubao-pro-128k'), passing: kinds(1, 0), failing: kinds(1, 1) },
      { source: source('gpt-4o-2024-05-13'), passing: kinds(1, 1), failing: kinds(1, 0) },
    ]);
    // deepseek-coder-v2 mixes kinds but has no failing run; gpt-4o-mini's others are of unknown outcome: no AUROC pair mixes kinds.
    const coder = report.trajectories.filter((t) => t.source === source('deepseek-coder-v2'));
    expect(new Set(coder.map((t) => t.reference?.kind))).toEqual(new Set(['in-folder', 'reference-free']));
  });

  it('says so in the headline: one line naming the sources outside the within-source mean (fewer than 3 passing or failing runs)', () => {
    const line =
      `warning: 3 more sources (fewer than 3 passing or failing runs: not in the within-source mean) pool scores against different kinds of reference: ` +
      `${source('deepseek-chat-v2')}; ${source('doubao-pro-128k')}; ${source('gpt-4o-2024-05-13')} (report.json referenceKindMix has the counts; --by-reference gives each kind alone)`;
    expect(terminalSummary(report).split('\n')).toContain(line);
    expect(markdownReport(report).split('\n')).toContain(`- ${line}`);
    expect(
      terminalSummary(report)
        .split('\n')
        .filter((l) => l.includes('pool scores against different kinds of reference')),
    ).toHaveLength(1);
  });

  it('a source in the within-source mean gets a line of its own with its counts per kind', () => {
    const mix = { source: 'A + m', passing: kinds(3, 1), failing: kinds(0, 5) };
    const small = { source: 'B + m', passing: kinds(1, 0), failing: kinds(1, 1) };
    expect(referenceKindMixLines([mix, small], 3)).toEqual([
      'warning: source A + m: passing runs scored 3 in-folder, 1 reference-free; failing runs 5 reference-free: ' +
        'its AUROC and tier shares pool scores against different kinds of reference, so they partly measure the kind of reference (--by-reference gives each kind alone)',
      'warning: 1 more source (fewer than 3 passing or failing runs: not in the within-source mean) pools scores against different kinds of reference: B + m ' +
        '(report.json referenceKindMix has the counts; --by-reference gives each kind alone)',
    ]);
    expect(referenceKindMixLines([mix], 3)).toHaveLength(1);
    expect(referenceKindMixLines([], 3)).toEqual([]);
  });

  it('is empty when every scored run met one kind of reference', () => {
    const one = corpusReport([path.join(JAVA, 'evaluation', 'java', 'verified', '20240825_SWE-agent_deepseek-chat-v2')]);
    expect(one.trajectories.every((t) => t.reference?.kind === 'reference-free')).toBe(true);
    expect(one.referenceKindMix).toEqual([]);
    expect(terminalSummary(one)).not.toContain('warning: source');
  });
});
