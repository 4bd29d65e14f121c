/**
 * report.json's `warnings`: every warning the report prints anywhere (the headline's `warning:` lines, the notes
 * under the models table, stderr), each once, without the `warning: ` prefix, so a reader of the JSON alone is told
 * everything a reader of the terminal is.
 */
import { forecastInSampleLine } from './forecast-in-sample.js';
import { rankTaskWarnings } from './rank-tasks.js';
import { referenceKindMixLines, selectionKindMixLines } from './reference-mix.js';
import { externalReferenceWarnings } from './rows.js';
import type { CorpusReport } from './types.js';

const bare = (line: string): string => line.replace(/^warning: /, '');

/** The warnings of a report built from its parts (`input`: those about the inputs, e.g. a manifest naming no log found). */
export function reportWarnings(
  r: Pick<CorpusReport, 'trajectories' | 'models' | 'referenceKindMix' | 'selection' | 'statistics'> & { inputs: Pick<CorpusReport['inputs'], 'forecastInSample'> },
  input: readonly string[] = [],
): string[] {
  const inSample = r.inputs.forecastInSample !== undefined ? forecastInSampleLine(r.inputs.forecastInSample) : null;
  const all = [
    ...input,
    ...externalReferenceWarnings(r.trajectories),
    ...rankTaskWarnings(r.models),
    ...referenceKindMixLines(r.referenceKindMix, r.statistics.minPerClass),
    ...selectionKindMixLines(r.selection),
    ...(inSample !== null ? [inSample] : []),
  ].map(bare);
  return [...new Set(all)];
}
