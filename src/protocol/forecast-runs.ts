/**
 * The sessions `serve --forecast-learn` keeps, on disk (`<dir>/runs.jsonl`, a tenant's
 * `<dir>/tenants/<tenant>/runs.jsonl`; server/forecast-runs.ts): JSON Lines, a header, then one line per change of
 * the scope's kept sessions, in the order they happened: a session kept (`run`, numbered by `n`, the learner's
 * order over every scope), one dropped past the bound (`drop`), a retraining attempt that saw every session kept so
 * far (`tried`). Feature values are JSON numbers, except those JSON has none for (`"NaN"`, `"Infinity"`,
 * `"-Infinity"`, and `"-0"`), so a session read back is the one kept, to the bit.
 */
import { z } from 'zod';
import { FEATURE_COUNT } from '../core/forecast/features.js';

export const FORECAST_RUNS_FORMAT = 'steplens-forecast-runs';
export const FORECAST_RUNS_VERSION = 1;

/** The `--forecast` file a scope's saved state was kept over, as version files record it (`learnedFrom`). */
export const forecastLearnedFromSchema = z.object({ digest: z.string(), version: z.number(), createdAt: z.string() }).strict();

export const forecastRunsHeaderSchema = z
  .object({
    kind: z.literal('header'),
    format: z.literal(FORECAST_RUNS_FORMAT),
    version: z.literal(FORECAST_RUNS_VERSION),
    /** The `--forecast` file the sessions were kept over, as version files record it (`learnedFrom`). */
    learnedFrom: forecastLearnedFromSchema,
    /** The learning scope they were kept in, and whose scope the file is (absent: the shared one). */
    scope: z.enum(['tenant', 'shared']),
    tenant: z.string().min(1).optional(),
    /** The feature catalogue the rows hold, in order. */
    features: z.array(z.string()),
  })
  .strict();

/** A feature value: a number, or one JSON cannot write. */
const value = z.union([z.number(), z.enum(['NaN', 'Infinity', '-Infinity', '-0'])]);

const runLine = z
  .object({
    kind: z.literal('run'),
    n: z.number().int().positive(),
    id: z.string(),
    task: z.string(),
    agent: z.string(),
    model: z.string(),
    passed: z.boolean(),
    length: z.number().int().positive(),
    at: z.array(z.number().int().positive()).min(1),
    rows: z.array(value),
  })
  .strict()
  .refine((r) => r.at.every((t, i) => i === 0 || t > r.at[i - 1]!) && r.at.at(-1) === r.length, 'at: ascending prefix lengths ending at length')
  .refine((r) => r.rows.length === r.at.length * FEATURE_COUNT, `rows: ${FEATURE_COUNT} values per prefix`);

export const forecastRunsLineSchema = z.discriminatedUnion('kind', [
  runLine,
  z.object({ kind: z.literal('drop'), n: z.number().int().positive() }).strict(),
  z.object({ kind: z.literal('tried') }).strict(),
]);

export type ForecastRunsHeader = z.infer<typeof forecastRunsHeaderSchema>;
export type ForecastRunsLine = z.infer<typeof forecastRunsLineSchema>;
export type FeatureValue = z.infer<typeof value>;
