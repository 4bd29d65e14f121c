/**
 * The retraining attempts `serve --forecast-learn` made, on disk (`<dir>/attempts.json`, a tenant's
 * `<dir>/tenants/<tenant>/attempts.json`; server/forecast-attempts.ts): one JSON document naming the `--forecast`
 * file they were made over (the digest version files record), the learning scope and whose scope it is, and the
 * scope's latest attempts, oldest first, each as `GET /v1/forecast` lists it (`learning.attempts`).
 */
import { z } from 'zod';
import { forecastLearnedFromSchema } from './forecast-runs.js';

export const FORECAST_ATTEMPTS_FORMAT = 'steplens-forecast-attempts';
export const FORECAST_ATTEMPTS_VERSION = 1;

/** One retraining attempt, as `GET /v1/forecast` lists it. */
export const learnAttemptSchema = z
  .object({
    at: z.iso.datetime(),
    /** The sessions it retrained on. */
    sessions: z.number().int().nonnegative(),
    result: z.enum(['skipped', 'rejected', 'accepted']),
    reason: z.string(),
    /** The version it put in force (accepted). */
    version: z.number().int().positive().optional(),
    /** The tenant whose own models it retrained (`tenant` scope; absent: the shared models). */
    tenant: z.string().min(1).optional(),
  })
  .strict();

export const forecastAttemptsFileSchema = z
  .object({
    format: z.literal(FORECAST_ATTEMPTS_FORMAT),
    version: z.literal(FORECAST_ATTEMPTS_VERSION),
    learnedFrom: forecastLearnedFromSchema,
    scope: z.enum(['tenant', 'shared']),
    /** Whose scope the file is (absent: the shared one); every attempt names the same. */
    tenant: z.string().min(1).optional(),
    attempts: z.array(learnAttemptSchema),
  })
  .strict()
  .refine((f) => f.attempts.every((a) => a.tenant === f.tenant), "attempts: each names the file's tenant (none in the shared scope's)");

export type LearnAttempt = z.infer<typeof learnAttemptSchema>;
export type ForecastAttemptsFile = z.infer<typeof forecastAttemptsFileSchema>;
