/** `train`'s line on the end-of-run model it wrote beside the prefix models (core/forecast/end-fit.ts). */
import type { EndModel } from '../core/forecast/model.js';

export function endModelText(end: EndModel, runs: number): string {
  const features = Object.keys(end.tables).length;
  return (
    `end-of-run model (finished runs only: rank and report --rank-model end; live sessions keep the prefix model): ` +
    `${end.models.length} models over the same ${features} features, each mapped to its ECDF among the ${runs} runs' end rows (tables in the file)\n`
  );
}
