/**
 * The one refusal of a run with no step to score. `steplens score`, `replay` and `POST /v1/score` (each batch item,
 * `/v1/score/steps`) refuse it alike: a report needs a tier (protocol v1's `final` carries one), and a run with nothing
 * in it has none to give (it read as a Lucky pass over HTTP while the CLI refused it).
 */
import { SteplensError } from '../errors.js';
import type { Diagnostic } from '../formats/types.js';

/** `WHERE: no steps found, nothing to score`, with the first diagnostic (often the cause) when there is one. */
export function noStepsMessage(where: string, why?: Diagnostic): string {
  return `${where}: no steps found, nothing to score${why ? ` (${why.at}: ${why.message})` : ''}`;
}

/** The `bad_input` error of {@link noStepsMessage}. */
export function noStepsError(where: string, why?: Diagnostic): SteplensError {
  return new SteplensError('bad_input', noStepsMessage(where, why));
}
