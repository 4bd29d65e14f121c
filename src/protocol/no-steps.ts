/**
 * The one refusal of a run with no step to score. `steplens score`, `replay` and `POST /v1/score` (each batch item,
 * `/v1/score/steps`) refuse it alike: a report needs a tier (protocol v1's `final` carries one), and a run with nothing
 * in it has none to give (it read as a Lucky pass over HTTP while the CLI refused it).
 */
import { SteplensError } from '../errors.js';
import type { Diagnostic } from '../formats/types.js';

/** What the steps were wanted for: a run to score says there is nothing to score; a reference (a PTA to learn) only that none were found. */
export type NoStepsPurpose = 'score' | 'reference';

/** `WHERE: no steps found[, nothing to score]`, with the first diagnostic (often the cause) when there is one. */
export function noStepsMessage(where: string, why?: Diagnostic, purpose: NoStepsPurpose = 'score'): string {
  const tail = purpose === 'score' ? ', nothing to score' : '';
  return `${where}: no steps found${tail}${why ? ` (${why.at}: ${why.message})` : ''}`;
}

/** The `bad_input` error of {@link noStepsMessage}. */
export function noStepsError(where: string, why?: Diagnostic, purpose: NoStepsPurpose = 'score'): SteplensError {
  return new SteplensError('bad_input', noStepsMessage(where, why, purpose));
}
