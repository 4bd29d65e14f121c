/**
 * House rules on imports, checked on the real sources: folders import only
 * downward in the order CONTRIBUTING.md lists, the core imports no I/O, and
 * there are no import circles (TypeScript files, core folders, Python client).
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { circles, grouped, pythonGraph, typescriptGraph, type ImportGraph } from './import-graph.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/** The `layers` block of CONTRIBUTING.md: unit name → layer number. */
function documentedLayers(markdown: string): Map<string, number> {
  const block = /<!-- layers[^>]*-->\s*```text\n([\s\S]*?)```/.exec(markdown);
  if (!block) throw new Error('CONTRIBUTING.md has no layers block');
  const layers = new Map<string, number>();
  for (const line of block[1]!.trim().split('\n')) {
    const [n, ...units] = line.trim().split(/\s+/);
    for (const u of units) {
      if (layers.has(u)) throw new Error(`CONTRIBUTING.md lists ${u} twice`);
      layers.set(u, Number(n));
    }
  }
  return layers;
}

/** The unit a source file belongs to: its folder under src/, or the root module's file name. */
function unitOf(file: string): string {
  return file.split('/')[1]!;
}

/** Edges between units that do not point to a strictly lower layer. */
function layerViolations(graph: ImportGraph, layers: ReadonlyMap<string, number>): string[] {
  const out: string[] = [];
  for (const [file, { local }] of graph) {
    const from = unitOf(file);
    for (const target of local) {
      const to = unitOf(target);
      if (to === from) continue;
      const a = layers.get(from);
      const b = layers.get(to);
      if (a === undefined || b === undefined || b >= a) out.push(`${file} -> ${target} (${from} on layer ${a ?? '?'}, ${to} on layer ${b ?? '?'})`);
    }
  }
  return out;
}

/** What the core may import from outside itself: computation only, no files, sockets, processes, clocks or logs. */
const CORE_PACKAGES = new Set(['zod', 'node:crypto', 'node:zlib', 'node:buffer']);

const src = typescriptGraph(ROOT, 'src');
const localEdges = (g: ImportGraph) => new Map([...g].map(([k, v]) => [k, v.local]));

describe('layering (CONTRIBUTING.md)', () => {
  const layers = documentedLayers(readFileSync(path.join(ROOT, 'CONTRIBUTING.md'), 'utf8'));

  it('lists every folder and root module of src/, and nothing else', () => {
    const units = new Set([...src.keys()].map(unitOf));
    expect([...layers.keys()].sort()).toEqual([...units].sort());
  });

  it('has every import point to a lower layer', () => {
    expect(layerViolations(src, layers)).toEqual([]);
  });
});

describe('the core', () => {
  it('imports no I/O module', () => {
    const io = [...src].filter(([file]) => file.startsWith('src/core/')).flatMap(([file, { packages }]) => packages.filter((p) => !CORE_PACKAGES.has(p)).map((p) => `${file} imports ${p}`));
    expect(io).toEqual([]);
  });

  it('has no circle among its folders', () => {
    const folders = grouped(src, (f) => (/^src\/core\/[^/]+\//.test(f) ? f.split('/').slice(0, 3).join('/') : undefined));
    expect(circles(folders)).toEqual([]);
  });
});

describe('import circles', () => {
  it('none among the TypeScript modules of src/', () => {
    expect(circles(localEdges(src))).toEqual([]);
  });

  it('none among the modules of the Python client', () => {
    const py = pythonGraph(ROOT, 'clients/python/steplens_client');
    expect(py.size).toBeGreaterThan(5);
    expect(circles(localEdges(py))).toEqual([]);
  });
});

describe('index files', () => {
  it('each is a package entry point or imported by something (src, test, bench)', () => {
    const pkg = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { exports: Record<string, { default: string }> };
    const entries = new Set(
      Object.values(pkg.exports)
        .filter((e) => typeof e === 'object')
        .map((e) => e.default.replace(/^\.\/dist\//, '').replace(/\.js$/, '.ts')),
    );
    const imported = new Set([src, typescriptGraph(ROOT, 'test'), typescriptGraph(ROOT, 'bench')].flatMap((g) => [...g.values()].flatMap((m) => m.local)));
    const unused = [...src.keys()].filter((f) => f.endsWith('/index.ts') && !entries.has(f) && !imported.has(f));
    expect(unused).toEqual([]);
  });
});

describe('the checks themselves', () => {
  const graph = (edges: Record<string, string[]>): ImportGraph => new Map(Object.entries(edges).map(([k, v]) => [k, { local: v, packages: [] }]));

  it('find a circle, a self-import and none in a tree', () => {
    expect(circles(new Map(Object.entries({ a: ['b'], b: ['c'], c: ['a'], d: ['a'] })))).toEqual([['a', 'b', 'c']]);
    expect(circles(new Map(Object.entries({ a: ['a'] })))).toEqual([['a']]);
    expect(circles(new Map(Object.entries({ a: ['b', 'c'], b: ['c'], c: [] })))).toEqual([]);
  });

  it('flag sideways and upward imports, and units missing from the list', () => {
    const layers = new Map([
      ['core', 1],
      ['server', 5],
      ['client', 5],
    ]);
    const g = graph({ 'src/core/a.ts': ['src/server/b.ts'], 'src/server/b.ts': ['src/client/c.ts', 'src/core/a.ts'], 'src/client/c.ts': ['src/cli/d.ts'] });
    expect(layerViolations(g, layers)).toEqual([
      'src/core/a.ts -> src/server/b.ts (core on layer 1, server on layer 5)',
      'src/server/b.ts -> src/client/c.ts (server on layer 5, client on layer 5)',
      'src/client/c.ts -> src/cli/d.ts (client on layer 5, cli on layer ?)',
    ]);
  });

  it('read the documented order', () => {
    const md = '<!-- layers -->\n```text\n0  errors.ts\n1  core\n2  syntax formats\n```\n';
    expect([...documentedLayers(md)]).toEqual([
      ['errors.ts', 0],
      ['core', 1],
      ['syntax', 2],
      ['formats', 2],
    ]);
  });
});
