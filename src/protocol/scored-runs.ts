/**
 * The scored-runs file `steplens calibrate --save-runs` writes and `--runs`
 * reads (JSON Lines, gzip when named `.gz`): runs with known outcomes as the
 * early-stop calibration replays them, so a run set is scored once and
 * calibrated many times (other bounds, groupings, folds). A header line, then
 * one run per line. A state keeps only what the stop kinds read:
 * `[stage, kind, tool, file, hash, flags, cost]`, with the tool, file and
 * hash as indexes into the run's `tools`, `files` (-1: none) and a per-run
 * hash numbering; `flags` bit 0 = changes a file, bit 1 = failed, bit 2 =
 * changes the environment or the tree beyond that file, bit 3 = a variant of
 * an earlier action (version 2; version 1 files lack bits 2-3 and are refused:
 * their replay would not match today's detectors).
 */
import { z } from 'zod';

export const SCORED_RUNS_FORMAT = 'steplens-scored-runs';
export const SCORED_RUNS_VERSION = 2;

export const scoredRunsHeaderSchema = z.object({
  format: z.literal(SCORED_RUNS_FORMAT),
  version: z.literal(SCORED_RUNS_VERSION),
  generatedBy: z.string().optional(),
});

const stage = z.enum(['E', 'I', 'V', 'O']);
const signalValues = z.object({ struct: z.number().nullable(), cov: z.number().nullable(), coh: z.number(), temp: z.number() });

export const compactStateSchema = z.tuple([
  stage,
  z.string().min(1),
  z.number().int().nonnegative(),
  z.number().int().min(-1),
  z.number().int().nonnegative(),
  z.number().int().min(0).max(15),
  z.number().finite().nonnegative(),
]);

export const scoredRunSchema = z.object({
  id: z.string(),
  task: z.string(),
  agent: z.string(),
  model: z.string(),
  source: z.string(),
  passed: z.boolean(),
  hasReference: z.boolean(),
  tools: z.array(z.string()),
  files: z.array(z.string()),
  states: z.array(compactStateSchema).min(1),
  totals: z.object({ referenceFree: z.array(z.number().finite()), reference: z.array(z.number().finite()).nullable() }),
  final: z.object({ referenceFree: signalValues, reference: signalValues.nullable() }),
});

export type ScoredRunsHeader = z.infer<typeof scoredRunsHeaderSchema>;
export type ScoredRunLine = z.infer<typeof scoredRunSchema>;
