/**
 * The references a scoring worker keeps between jobs (score-worker.ts), each under the tag the main thread gave
 * it, so an unchanged one is not sent again. Bounded by count and by the JSON characters of the PTAs among them:
 * by count alone (32), a tenant's own PTAs of up to 16 MiB each could keep 512 MiB of text (several times that
 * once parsed) alive in every worker.
 */
import { LRUCache } from 'lru-cache';
import type { AskedValue } from './score-pool-messages.js';

/** References kept at most. */
export const KEPT_REFERENCES = 32;

/** JSON characters of the kept PTAs at most (the prior and small references count 1 each). */
export const KEPT_PTA_CHARS = 32 * 1024 * 1024;

export interface KeptReference {
  tag: number;
  value: AskedValue;
  /** The JSON characters it crossed as (0: sent as an object). */
  chars: number;
}

export function keptReferences(maxChars = KEPT_PTA_CHARS, max = KEPT_REFERENCES): LRUCache<string, KeptReference> {
  // One past the bound is not kept at all (lru-cache refuses it): it is sent again when asked for.
  return new LRUCache<string, KeptReference>({ max, maxSize: maxChars, sizeCalculation: (e) => Math.max(1, e.chars) });
}
