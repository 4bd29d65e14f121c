import type { Analyzers } from '../core/ports.js';
import { createPythonScopeResolver, type CacheStats } from './python-scope.js';
import { createShellAnalyzer } from './shell-analyzer.js';

export { createShellAnalyzer, parseShell } from './shell-analyzer.js';
export { createPythonScopeResolver } from './python-scope.js';

let singleton: ReturnType<typeof makeAnalyzers> | undefined;

function makeAnalyzers() {
  const shell = createShellAnalyzer();
  const scope = createPythonScopeResolver();
  return { shell, scope, cacheStats: () => ({ shell: shell.cacheStats(), scope: scope.cacheStats() }) };
}

/** The tree-sitter analyzers, created once per process and shared; `cacheStats` says what their caches hold. */
export function defaultAnalyzers(): Analyzers & { cacheStats(): { shell: CacheStats; scope: CacheStats } } {
  singleton ??= makeAnalyzers();
  return singleton;
}
