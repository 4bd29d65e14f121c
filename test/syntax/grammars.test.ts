/**
 * tree-sitter and each grammar load on first use (src/syntax/grammars.ts): a command that parses no shell
 * line or no Python file does not pay for them. Checked in a fresh Node process on dist/ (vitest's workers
 * share loaded modules between test files), with what `require` has loaded after each step.
 */
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { packageRoot } from '../../src/package-files.js';
import { newParser } from '../../src/syntax/grammars.js';

const ROOT = packageRoot();

const PROBE = `
const { createRequire } = await import('node:module');
const { defaultAnalyzers } = await import(${JSON.stringify(path.join(ROOT, 'dist/src/syntax/index.js'))});
const loaded = () => Object.keys(createRequire(import.meta.url).cache).filter((f) => /node_modules\\/tree-sitter/.test(f)).map((f) => f.split('node_modules/')[1].split('/')[0]);
const seen = [];
const a = defaultAnalyzers();
seen.push([...new Set(loaded())]);
a.shell.parse('ls -la | grep x');
seen.push([...new Set(loaded())]);
a.scope.scopeAt('README.md', 'text', [1, 1]);
seen.push([...new Set(loaded())]);
a.scope.scopeAt('a.py', 'def f():\\n    """Doc\\n', [2, 2]); // a string open at the end: not plain, so parsed
seen.push([...new Set(loaded())]);
console.log(JSON.stringify(seen));
`;

describe('tree-sitter grammars', () => {
  it('load on the first parse that needs them: bash on a shell line, python on a .py file', () => {
    const run = spawnSync(process.execPath, ['--input-type=module', '-e', PROBE], { cwd: ROOT, encoding: 'utf8' });
    expect(run.status, run.stderr).toBe(0);
    const [made, shell, notPython, python] = JSON.parse(run.stdout) as string[][];
    expect(made).toEqual([]);
    expect(shell?.sort()).toEqual(['tree-sitter', 'tree-sitter-bash']);
    expect(notPython?.sort()).toEqual(['tree-sitter', 'tree-sitter-bash']);
    expect(python?.sort()).toEqual(['tree-sitter', 'tree-sitter-bash', 'tree-sitter-python']);
  });

  it("are set without tree-sitter's per-type node classes, and parse as before", () => {
    const parser = newParser('python');
    const language = parser.getLanguage() as { nodeTypeInfo?: unknown; nodeSubclasses?: unknown[] };
    expect(language.nodeTypeInfo).toBeUndefined();
    expect(new Set(language.nodeSubclasses).size).toBe(1);
    const root = parser.parse('def f(x):\n    return x\n').rootNode;
    expect(root.type).toBe('module');
    expect(root.firstNamedChild?.type).toBe('function_definition');
    expect(root.firstNamedChild?.childForFieldName('name')?.text).toBe('f');
  });
});
