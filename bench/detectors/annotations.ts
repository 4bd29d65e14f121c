/**
 * The annotation set of the repeat detectors (test/fixtures/detector-annotations.jsonl,
 * README there): items the detectors fired on real runs, each judged a true or a false
 * positive by reading the steps, and the precision figures computed from it.
 */
import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { wilsonInterval } from '../../src/core/stats/binomial.js';
import { DETECTORS, itemKey, type DetectorName } from './items.js';

export const VERSIONS = ['before', 'after'] as const;
export type Version = (typeof VERSIONS)[number];

const recordSchema = z
  .object({
    detector: z.enum(DETECTORS),
    /** `corpus/<path>[#line]` (in test/fixtures/corpus.tar.br) or `calibration/<path>` (../shared/calibration, not in the clone). */
    run: z.string().regex(/^(corpus|calibration)\//),
    source: z.string().min(1),
    steps: z.array(z.number().int().nonnegative()).min(1),
    t: z.number().int().nonnegative().optional(),
    severity: z.enum(['warn', 'stop']).optional(),
    /** Whether the item fired before the fix (the detectors as of issue 23) and after it (today's code). */
    before: z.boolean(),
    after: z.boolean(),
    /** The samples the item was drawn in: a version's precision is computed over its own sample. */
    samples: z.array(z.enum(VERSIONS)).min(1),
    verdict: z.enum(['tp', 'fp']),
    reason: z.string().min(10),
  })
  .strict();

export type Annotation = z.infer<typeof recordSchema>;

/** Reads and checks the annotation file; one error naming the line for a bad record. */
export function readAnnotations(path: string): Annotation[] {
  return readFileSync(path, 'utf8')
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((line, i) => {
      const r = recordSchema.safeParse(JSON.parse(line));
      if (!r.success) throw new Error(`${path} line ${i + 1}: ${r.error.issues.map((x) => `${x.path.join('.')}: ${x.message}`).join('; ')}`);
      return r.data;
    });
}

/** The key of an annotation, as {@link itemKey} gives it for a fired item. */
export function annotationKey(a: Annotation): string {
  return itemKey({ detector: a.detector, steps: a.steps, ...(a.t !== undefined ? { t: a.t } : {}), ...(a.severity !== undefined ? { severity: a.severity } : {}) });
}

export interface Precision {
  detector: DetectorName;
  version: Version;
  tp: number;
  n: number;
  /** Two-sided 95 % Wilson interval. */
  low: number;
  high: number;
}

/** Precision of each detector in each version over that version's sample (items of the sample that fired in it), optionally within one source. */
export function precisions(records: readonly Annotation[], source?: string): Precision[] {
  const out: Precision[] = [];
  for (const detector of DETECTORS) {
    for (const version of VERSIONS) {
      const xs = records.filter((r) => r.detector === detector && r.samples.includes(version) && r[version] && (source === undefined || r.source === source));
      const tp = xs.filter((r) => r.verdict === 'tp').length;
      const [low, high] = wilsonInterval(tp, xs.length);
      out.push({ detector, version, tp, n: xs.length, low, high });
    }
  }
  return out;
}
