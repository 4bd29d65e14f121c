import { describe, expect, it } from 'vitest';
import { createPythonScopeResolver } from '../../src/syntax/index.js';

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
