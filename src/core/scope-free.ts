/**
 * Analyzers without scope resolution, for scoring that no scope can change. `scope` (the enclosing Python function
 * of a viewed or edited range) feeds only PTA matching, PTA building, the Lucky taxonomy's reference-based classes
 * and the consensus ranking; no reference-free signal, waste detector, early-stop detector or forecast feature reads
 * it. Parsing every viewed Python file to find it was a third of the time of `steplens train`, and of `score`,
 * `report`, `calibrate` and `rank` (without `--consensus`) on runs scored against the prior (bench/README.md,
 * "Reference-free `score` without scope lookups"). test/forecast/train-shortcuts.test.ts and
 * test/cli/score-scope-free.test.ts check that the scores, reports and signals are the same with the real resolver.
 */
import type { Analyzers, ScopeResolver } from './ports.js';
import type { Reference } from './scorer-api.js';

/** A scope resolver that resolves nothing. */
export const NO_SCOPE: ScopeResolver = { scopeAt: () => undefined };

/** The given shell analyzer, no scope resolution. */
export const withoutScope = (a: Analyzers): Analyzers => ({ shell: a.shell, scope: NO_SCOPE });

/**
 * The analyzers to score against `reference` with: `a` itself against a PTA (its matching reads scopes) or when the
 * caller reads the states' scopes itself (`needScope`: a consensus ranking, states that build PTAs); else `a`
 * without scope resolution.
 */
export const analyzersFor = (reference: Reference, a: Analyzers, needScope = false): Analyzers => (needScope || reference.kind === 'pta' ? a : withoutScope(a));
