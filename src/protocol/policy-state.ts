/**
 * The policy state the server persists (shadow counters and promotions per
 * tenant + agent + model pair, operator pins and freezes per agent + model), and the bodies of the operator
 * routes (`POST /v1/policies/pin`, `/freeze`). See proto/README.md, "Policies".
 */
import { z } from 'zod';
import { policyInputSchema } from '../core/policy.js';

const count = z.number().finite().nonnegative();
const candidateCounters = z.object({ passingStopped: count, failingStopped: count, failingStepsSaved: count, failingTokensSaved: count });

export const pairCountersSchema = z.object({
  passing: count,
  failing: count,
  failingSteps: count,
  failingTokens: count,
  candidates: z.record(z.string(), candidateCounters),
});

export const pairStateSchema = z.object({
  /** The tenant whose sessions the counters count (absent in files written before tenants: the default tenant). */
  tenant: z.string().optional(),
  agent: z.string().nullable(),
  model: z.string().nullable(),
  /** Sessions assigned so far (the shadow share is drawn from this count). */
  sessions: count,
  counters: pairCountersSchema,
  /** The candidate whose stops are in force, if any. */
  promoted: z.string().nullable(),
  /** The configured stops the `configured` candidate stood for when counted (counters reset when it changes). */
  configured: z.string(),
  /** Files written before tenants kept pins and freezes on the pair (now in `pins`). */
  pinned: policyInputSchema.nullable().optional(),
  frozen: z.boolean().optional(),
});

/** An operator's pin and freeze of an agent + model pair, for every tenant. */
export const pinStateSchema = z.object({
  agent: z.string().nullable(),
  model: z.string().nullable(),
  pinned: policyInputSchema.nullable(),
  frozen: z.boolean(),
});

export const policyStateSnapshotSchema = z.object({
  format: z.literal('steplens-policy-state'),
  version: z.literal(1),
  pairs: z.array(pairStateSchema),
  pins: z.array(pinStateSchema).optional(),
});

export type PairState = z.infer<typeof pairStateSchema>;
export type PinState = z.infer<typeof pinStateSchema>;
export type PolicyStateSnapshot = z.infer<typeof policyStateSnapshotSchema>;

const agent = z.string().min(1).max(256).optional().describe('The agent of the (agent, model) pair, as sessions name it in start.agent; absent: sessions that name none');
const model = z.string().min(1).max(256).optional().describe('The model of the pair, as in start.model; absent: sessions that name none');

export const pinRequestSchema = z
  .object({
    agent,
    model,
    policy: policyInputSchema.nullable().describe('The policy to force for this pair (a partial override of its configured policy); null lifts the pin'),
  })
  .strict();

export const freezeRequestSchema = z
  .object({
    agent,
    model,
    frozen: z.boolean().describe('true: no more promotions or demotions for this pair (its counters keep counting); false: thaw'),
  })
  .strict();

export type PinRequest = z.infer<typeof pinRequestSchema>;
export type FreezeRequest = z.infer<typeof freezeRequestSchema>;
