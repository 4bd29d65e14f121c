/**
 * Shadow mode's settings (`serve --shadow`): the promotion rule (the false-stop bound a candidate stop must hold, at
 * what confidence, by which interval) and the share of a promoted pair's sessions kept in shadow; and their check.
 */
import type { PromotionRule } from '../core/shadow/index.js';

export interface ShadowOptions extends PromotionRule {
  /** Share of a promoted (or pinned) pair's sessions that stays in shadow (0..1). */
  share: number;
}

export const DEFAULT_SHADOW: ShadowOptions = { share: 0.1, maxFalseStop: 0.05, confidence: 0.95, bound: 'clopper-pearson' };

/** Why shadow options are invalid, or undefined. */
export function checkShadow(o: ShadowOptions): string | undefined {
  if (!(o.share >= 0 && o.share <= 1)) return `shadow share must be in [0, 1], got ${o.share}`;
  if (!(o.maxFalseStop >= 0 && o.maxFalseStop <= 1)) return `shadow maxFalseStop must be in [0, 1], got ${o.maxFalseStop}`;
  if (!(o.confidence > 0 && o.confidence < 1)) return `shadow confidence must be strictly between 0 and 1, got ${o.confidence}`;
  return o.bound === 'clopper-pearson' || o.bound === 'wilson' ? undefined : `shadow bound must be clopper-pearson or wilson, got ${String(o.bound)}`;
}
