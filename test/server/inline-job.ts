/** Test helper: an HTTP scoring job run inline (no worker), against the prior, noting the event loop's turns at each reference asked. */
import { UNIFORM_PRIOR } from '../../src/index.js';
import { DEFAULT_CONFIG } from '../../src/core/config.js';
import { DEFAULT_POLICY } from '../../src/core/policy.js';
import { defaultAnalyzers } from '../../src/syntax/index.js';
import { runJob, type JobKind, type JobResult } from '../../src/server/scoring-jobs.js';

const analyzers = defaultAnalyzers();

/** Runs a `kind` job over `body`; `turnsAtAsk` gets `turns()` at each reference asked (an item or query being scored). */
export function inlineJob(kind: JobKind, body: string, turnsAtAsk?: number[], turns?: () => number): Promise<JobResult> {
  return runJob(
    { kind, body: new Uint8Array(Buffer.from(body)), policy: DEFAULT_POLICY, config: DEFAULT_CONFIG, maxSteps: 5000, tenant: 't' },
    {
      analyzers,
      prior: async () => UNIFORM_PRIOR,
      reference: async () => {
        turnsAtAsk?.push(turns?.() ?? 0);
        return { kind: 'prior', prior: UNIFORM_PRIOR };
      },
      pta: async () => undefined,
    },
  );
}
