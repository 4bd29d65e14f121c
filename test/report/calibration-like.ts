/**
 * The calibration set's three sources with the figures `report --manifest` printed for ../shared/calibration (models
 * table: pass rate and mean quality with their 95 % intervals), over the shared corpus's report: the charts' tests
 * (audit29, audit30) read them. `unranked`: the ranks cleared, as that report ranks none (they ran different tasks).
 */
import type { CorpusReport, ModelRow } from '../../src/report/types.js';

export function calibrationLike(corpus: CorpusReport, unranked = false): CorpusReport {
  const base = corpus.models.find((m) => m.passRateInterval && m.meanQualityInterval)!;
  const row = (agent: string, model: string, n: number, p: [number, number, number], q: [number, number, number]): ModelRow => ({
    ...base,
    agent,
    model,
    evaluated: n,
    scored: n,
    passRate: p[0],
    passRateInterval: { lo: p[1], hi: p[2], level: 0.95 },
    meanQuality: q[0],
    meanQualityInterval: { lo: q[1], hi: q[2], level: 0.95 },
    ...(unranked ? { rankPass: null, rankQuality: null, rankShift: null } : {}),
  });
  const models = [
    row('SWE-agent 0.x', 'gpt-4', 721, [0.104, 0.075, 0.143], [56.1, 53.9, 58.4]),
    row('CodeR', 'gpt-4', 199, [0.322, 0.261, 0.389], [63.2, 61.3, 65.0]),
    row('mini-swe-agent 2.2.4', 'openai/gpt-5-mini', 31, [0.581, 0.408, 0.736], [62.6, 60.3, 64.9]),
  ];
  return { ...corpus, models };
}
