import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { createPythonScopeResolver } from '../../src/syntax/index.js';
import { indentScope } from '../../src/syntax/python-indent-scope.js';
import { MAX_SCOPE_PARSE_CHARS } from '../../src/syntax/python-scope.js';

// Shape of moto/scheduler/models.py (corpus: getmoto__moto-6510), abridged.
const SOURCE = [
  'from typing import Any, Dict', // 1
  '', // 2
  'class Schedule(BaseModel):', // 3
  '    def __init__(self, region: str):', // 4
  '        self.region = region', // 5
  '', // 6
  '    def to_dict(self) -> Dict[str, Any]:', // 7
  '        def inner():', // 8
  '            return 1', // 9
  '        return {"Name": self.name}', // 10
  '', // 11
  'def helper():', // 12
  '    return 2', // 13
].join('\n');

describe('PythonScopeResolver', () => {
  const scope = createPythonScopeResolver();
  it('finds nested class/method/function scopes', () => {
    expect(scope.scopeAt('moto/scheduler/models.py', SOURCE, [5, 5])).toBe('Schedule.__init__');
    expect(scope.scopeAt('moto/scheduler/models.py', SOURCE, [9, 9])).toBe('Schedule.to_dict.inner');
    expect(scope.scopeAt('moto/scheduler/models.py', SOURCE, [13, 13])).toBe('helper');
  });
  it('returns <module> at top level', () => {
    expect(scope.scopeAt('m.py', SOURCE, [1, 1])).toBe('<module>');
  });
  it('returns the common enclosing scope of a range spanning two functions', () => {
    expect(scope.scopeAt('m.py', SOURCE, [5, 9])).toBe('Schedule');
    expect(scope.scopeAt('m.py', SOURCE, [9, 13])).toBe('<module>');
  });
  it('is undefined for non-Python files', () => {
    expect(scope.scopeAt('src/main/java/Version.java', 'class A {}', [1, 1])).toBeUndefined();
  });
});

/**
 * F2: the parse-tree cache was bounded by count only (256 trees; an 850 KB file's tree held ~138 MB) and any
 * file went to tree-sitter (1.4 s of the event loop for 850 KB). Trees are now bounded by estimated bytes, and
 * a file over the parse cap gets its scopes from indentation, which agrees with the tree on real code.
 */
describe('PythonScopeResolver bounds', () => {
  const clientFiles = ['hook.py', 'rewards.py', 'session.py', 'stream.py'].map((f) => `clients/python/steplens_client/${f}`);

  it('keeps parse trees within the byte budget', () => {
    const scope = createPythonScopeResolver({ cacheBytes: 4 * 1024 * 1024, plainFromIndentation: false });
    const body = readFileSync('clients/python/steplens_client/session.py', 'utf8');
    for (let i = 0; i < 40; i++) scope.scopeAt(`f${i}.py`, `${body}\n# ${i}\n`, [10, 12]);
    const stats = scope.cacheStats();
    expect(stats.bytes).toBeGreaterThan(0);
    expect(stats.bytes).toBeLessThanOrEqual(4 * 1024 * 1024);
    expect(stats.entries).toBeLessThan(40);
  });

  it('does not parse (nor keep) a file over the parse cap', () => {
    const scope = createPythonScopeResolver();
    const huge = `class Big:\n${'    def m(self):\n        return 1\n'.repeat(Math.ceil((MAX_SCOPE_PARSE_CHARS + 1) / 33))}`;
    expect(huge.length).toBeGreaterThan(MAX_SCOPE_PARSE_CHARS);
    expect(scope.scopeAt('big.py', huge, [3, 3])).toBe('Big.m');
    expect(scope.cacheStats().entries).toBe(0);
  });

  it('scopes by indentation exactly as the tree does, on every range of real files', () => {
    const tree = createPythonScopeResolver({ plainFromIndentation: false });
    const sources = [SOURCE, ...clientFiles.map((f) => readFileSync(f, 'utf8'))];
    let ranges = 0;
    for (const text of sources) {
      const rows = text.split('\n').length;
      for (let r = 1; r <= rows + 1; r++) {
        for (const k of r % 2 === 0 ? [0, 4] : [0]) {
          ranges++;
          expect(indentScope(text, r - 1, r - 1 + k), `rows ${r}-${r + k}`).toBe(tree.scopeAt('x.py', text, [r, r + k]));
        }
      }
    }
    expect(ranges).toBeGreaterThan(1000);
  });
});
