/**
 * The import graph of the sources, read without a bundler: TypeScript's own
 * pre-processor lists each file's imports (static, `import type`, re-exports,
 * dynamic `import()`); Python imports are read line by line. Used by the
 * boundary tests (layering, I/O in the core, circles).
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

/** Repository-relative path (posix) → the imports of that file. */
export type ImportGraph = Map<string, ModuleImports>;

export interface ModuleImports {
  /** Repository-relative paths of the local modules it imports. */
  local: string[];
  /** Package specifiers (`zod`, `node:fs`, ...). */
  packages: string[];
}

function filesUnder(dir: string, ext: string): string[] {
  return readdirSync(dir, { withFileTypes: true })
    .flatMap((e) => (e.isDirectory() ? filesUnder(path.join(dir, e.name), ext) : e.name.endsWith(ext) ? [path.join(dir, e.name)] : []))
    .sort();
}

const posix = (p: string): string => p.split(path.sep).join('/');

/** The module a relative TypeScript specifier (`./x.js`, `../y/index.js`, `./z`) names, if it exists. */
function resolveTs(from: string, spec: string): string | undefined {
  const base = path.resolve(path.dirname(from), spec);
  const candidates = [base.replace(/\.js$/, '.ts'), `${base}.ts`, path.join(base, 'index.ts')];
  return candidates.find((c) => existsSync(c));
}

/** Every `.ts` file under `root/dir` with its imports. Unresolvable relative imports throw: the graph must be whole. */
export function typescriptGraph(root: string, dir: string): ImportGraph {
  const graph: ImportGraph = new Map();
  for (const file of filesUnder(path.join(root, dir), '.ts')) {
    const info = ts.preProcessFile(readFileSync(file, 'utf8'), true, true);
    const local: string[] = [];
    const packages: string[] = [];
    for (const { fileName } of info.importedFiles) {
      if (!fileName.startsWith('.')) {
        packages.push(fileName);
        continue;
      }
      const target = resolveTs(file, fileName);
      if (target === undefined) throw new Error(`${posix(path.relative(root, file))}: cannot resolve import '${fileName}'`);
      local.push(posix(path.relative(root, target)));
    }
    graph.set(posix(path.relative(root, file)), { local, packages });
  }
  return graph;
}

/** Relative imports of a Python package (`from .x import y`, `from . import x`, `import pkg.x`), type-checking-only ones included. */
export function pythonGraph(root: string, pkgDir: string): ImportGraph {
  const pkg = path.basename(pkgDir);
  const graph: ImportGraph = new Map();
  const moduleFile = (name: string): string => posix(path.join(pkgDir, `${name}.py`));
  for (const file of filesUnder(path.join(root, pkgDir), '.py')) {
    const local = new Set<string>();
    for (const line of readFileSync(file, 'utf8').split('\n')) {
      const from = /^\s*from\s+(\.+|\w+(?:\.\w+)*)([\w.]*)\s+import\s+(.+)$/.exec(line);
      const plain = /^\s*import\s+(\w+(?:\.\w+)*)/.exec(line);
      if (from) {
        const mod = from[1]! + from[2]!;
        if (mod === '.') for (const name of from[3]!.split(',').map((s) => s.trim().split(/\s+/)[0]!)) local.add(moduleFile(name.replace(/[()]/g, '')));
        else if (mod.startsWith('.')) local.add(moduleFile(mod.replace(/^\.+/, '').split('.')[0]!));
        else if (mod.startsWith(`${pkg}.`)) local.add(moduleFile(mod.split('.')[1]!));
      } else if (plain) {
        const mod = plain[1]!;
        if (mod.startsWith(`${pkg}.`)) local.add(moduleFile(mod.split('.')[1]!));
      }
    }
    const self = posix(path.relative(root, file));
    graph.set(self, { local: [...local].filter((m) => m !== self && existsSync(path.join(root, m))), packages: [] });
  }
  return graph;
}

/** Strongly connected components with more than one node, or a node importing itself: the import circles. */
export function circles(edges: ReadonlyMap<string, readonly string[]>): string[][] {
  let counter = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  // Recursive Tarjan: module graphs are a few hundred nodes deep at most.
  const visit = (v: string): void => {
    index.set(v, counter);
    low.set(v, counter);
    counter++;
    stack.push(v);
    onStack.add(v);
    for (const w of edges.get(v) ?? []) {
      if (!edges.has(w)) continue;
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) !== index.get(v)) return;
    const component: string[] = [];
    let w: string;
    do {
      w = stack.pop()!;
      onStack.delete(w);
      component.push(w);
    } while (w !== v);
    if (component.length > 1 || (edges.get(v) ?? []).includes(v)) found.push(component.sort());
  };
  for (const v of [...edges.keys()].sort()) if (!index.has(v)) visit(v);
  return found;
}

/** The graph with each node mapped to a group (`unit`), edges between distinct groups only. */
export function grouped(graph: ImportGraph, unit: (file: string) => string | undefined): Map<string, string[]> {
  const out = new Map<string, Set<string>>();
  for (const [file, { local }] of graph) {
    const from = unit(file);
    if (from === undefined) continue;
    if (!out.has(from)) out.set(from, new Set());
    for (const target of local) {
      const to = unit(target);
      if (to !== undefined && to !== from) out.get(from)!.add(to);
    }
  }
  return new Map([...out].map(([k, v]) => [k, [...v].sort()]));
}
