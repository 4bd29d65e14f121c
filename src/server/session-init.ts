/** What a {@link Session} is made from (session.ts keeps the session's behaviour, this file its inputs). */
import type { Weights } from '../core/config.js';
import type { Scorer } from '../core/scorer-api.js';
import type { ReferenceInfo } from '../core/types.js';
import type { FormatName, StreamParser } from '../formats/types.js';
import type { Principal } from './principal.js';

export interface SessionInit {
  id: string;
  /** Who started it: its tenant is its namespace (and what it may learn follows its role). */
  principal: Principal;
  task: string;
  format: FormatName;
  agent?: string;
  model?: string;
  learn: boolean;
  scorer: Scorer;
  /** Version of the forecast model the scorer carries (the session keeps it for its whole life). */
  forecastVersion?: number;
  reference: ReferenceInfo;
  /** The scorer's composite weights: the frame log recomputes the totals they give instead of keeping them. */
  weights?: Weights;
  /** Stream parser for non-`steplens` formats. */
  parser?: StreamParser;
  /** Which policy it runs under, and whether it is a shadow session whose outcome is counted. */
  policy?: SessionPolicy;
  maxSteps: number;
  /** Steps it is expected to reach (its PTA's reference runs' median, core/pta/expected-states.ts; 0: unknown): its step lines grow toward it. */
  expectedSteps?: number;
  now: number;
}

export interface SessionPolicy {
  /** The policy manager's key of its agent + model pair. */
  pair: string;
  selected: string;
  shadow: boolean;
}
