/**
 * What `build-pta` can know of its references' outcomes (audit26: it built a PTA from a failing run without a word). A
 * log does not say whether its patch passed; an evaluation does: `--outcomes` / `--manifest` rows, or the evaluation
 * files beside the log that `report` reads (report/resolve-outcome.ts). A run any of them calls failed is refused (a
 * reference teaches the PTA its path); one the infrastructure interrupted is warned about; one nothing evaluates is
 * taken on the user's word, as the usage text says.
 */
import { resolve } from 'node:path';
import { SteplensError } from '../errors.js';
import { numberedSteps } from '../core/step-numbers.js';
import { identify } from '../report/identity.js';
import { nodeReportFs } from '../report/node-fs.js';
import { nameRuns, type RunNamingInputs } from '../report/run-naming.js';
import type { Instance } from './instances.js';

/** The outcome flags build-pta takes (the same tables as report, calibrate and train). */
export const PTA_OUTCOME_OPTIONS = { outcomes: { type: 'string' }, manifest: { type: 'string' } } as const;

/** Refuses a run an evaluation calls failed; warns about one the infrastructure interrupted. */
export function checkReferenceOutcome(file: string, where: string, x: Instance, cwd: string, naming: RunNamingInputs, warn: (s: string) => void): void {
  const path = resolve(cwd, file);
  const p = x.parsed;
  const t = { id: where, path, format: p.format, meta: p.meta, steps: numberedSteps(p.steps), ...identify(path, p.meta, p.format) };
  const [named] = nameRuns(nodeReportFs, [t], naming);
  const o = named?.outcome;
  if (o?.outcome === 'fail') {
    throw new SteplensError('bad_input', `${where} is a failing run (${o.source} says so): a PTA is built from passing runs of the task only; leave it out (or correct ${o.source})`);
  }
  if (o?.outcome === 'censored') warn(`warning: ${where}: the infrastructure interrupted this run (${o.source}) and no evaluation says it passed; used as a reference anyway\n`);
}
