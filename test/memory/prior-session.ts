/** A session scored against the uniform prior, as the memory tests build one (no server, no reference). */
import { UNIFORM_PRIOR } from '../../src/core/prior.js';
import { createScorer } from '../../src/core/scorer.js';
import { LOCAL_PRINCIPAL } from '../../src/server/principal.js';
import { Session } from '../../src/server/session.js';
import { defaultAnalyzers } from '../../src/syntax/index.js';

const analyzers = defaultAnalyzers();

export function priorSession(): Session {
  return new Session({
    id: 's',
    principal: LOCAL_PRINCIPAL,
    task: 't',
    format: 'steplens',
    learn: false,
    scorer: createScorer({ reference: { kind: 'prior', prior: UNIFORM_PRIOR }, analyzers }),
    reference: { kind: 'prior' },
    maxSteps: 10_000,
    now: 0,
  });
}
