/**
 * steplens as a library: the pure scoring core, the log-format parsers, the
 * default tree-sitter analyzers, and the error catalogue. The server is at
 * `steplens/server` (`buildApp`), the WebSocket client at `steplens/client`.
 *
 * @example
 * import { createScorer, defaultAnalyzers, parseTrajectoryText, UNIFORM_PRIOR } from 'steplens';
 * const parsed = parseTrajectoryText(text, 'auto');
 * const scorer = createScorer({ reference: { kind: 'prior', prior: UNIFORM_PRIOR }, analyzers: defaultAnalyzers() });
 * for (const step of parsed.ok ? parsed.value.steps : []) console.log(scorer.push(step).score.total);
 */
export * from './core/index.js';
export * from './formats/index.js';
export { defaultAnalyzers } from './syntax/index.js';
export { ERROR_CODES, SteplensError, type ErrorCode, type Result } from './errors.js';
