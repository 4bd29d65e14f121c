import type { Analyzers } from '../core/ports.js';
import { createPythonScopeResolver } from './python-scope.js';
import { createShellAnalyzer } from './shell-analyzer.js';

export { createShellAnalyzer, parseShell } from './shell-analyzer.js';
export { createPythonScopeResolver } from './python-scope.js';

let singleton: Analyzers | undefined;

/** The tree-sitter analyzers, created once per process and shared. */
export function defaultAnalyzers(): Analyzers {
  singleton ??= { shell: createShellAnalyzer(), scope: createPythonScopeResolver() };
  return singleton;
}
