/** `report --rank-model end`: a finished run's report with its pPass from the end-of-run model (core/forecast/end-model.ts). */
import type { EndScorer } from '../core/forecast/end-model.js';

export function withEndPPass<R extends { pPass?: number }>(report: R, end: EndScorer | undefined): R {
  if (end === undefined) return report;
  const { pPass: _, ...rest } = report;
  const p = end.value();
  return (p === undefined ? rest : { ...rest, pPass: p }) as R;
}
