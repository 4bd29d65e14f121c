/**
 * Who holds a session's bytes, from a heap snapshot (`memory --snapshot PREFIX` writes one of each layout's measured
 * sessions): the objects that only the roots (by default every `Session`) keep alive, i.e. not reachable from the
 * GC roots without passing through one, each attributed to the path it is first reached by from a root (a
 * breadth-first tree over those objects; weak edges are not followed), summed by path prefix and divided by the
 * number of roots. Objects shared with the rest of the heap (pooled texts another holder keeps, interned strings,
 * hidden classes) are not counted: `memory`'s retained figure is this plus what dies with the sessions without
 * being theirs alone (hidden classes used only by them, the shared-text pool's weak entries).
 *
 *   node --max-old-space-size=4096 dist/bench/heap-owners.js FILE.heapsnapshot [--root Session] [--depth 4] [--min 0.3]
 * `--root`: the class of the roots, or `edge:NAME` for the objects a property NAME points to; `--min`: the smallest
 * row shown, in KB per root.
 */
import { readFileSync } from 'node:fs';
import { argsError, benchArgs, numberFlag } from './args.js';

const { values: args, positionals } = benchArgs(
  {
    allowPositionals: true,
    options: { root: { type: 'string', default: 'Session' }, depth: { type: 'string', default: '4' }, min: { type: 'string', default: '0.3' } },
  },
  'node --max-old-space-size=4096 dist/bench/heap-owners.js FILE.heapsnapshot [--root Session] [--depth 4] [--min 0.3]',
);
const file = positionals[0];
if (file === undefined) argsError('give a FILE.heapsnapshot');
const depth = numberFlag(args, 'depth', 'positive integer');
const minKb = numberFlag(args, 'min', 'non-negative number');

interface Snapshot {
  snapshot: { meta: { node_fields: string[]; edge_fields: string[]; node_types: [string[]]; edge_types: [string[]] } };
  nodes: number[];
  edges: number[];
  strings: string[];
}

const { snapshot, nodes, edges, strings } = JSON.parse(readFileSync(file, 'utf8')) as Snapshot;
const meta = snapshot.meta;
const NF = meta.node_fields.length;
const EF = meta.edge_fields.length;
const [N_TYPE, N_NAME, N_SIZE, N_EDGES] = ['type', 'name', 'self_size', 'edge_count'].map((f) => meta.node_fields.indexOf(f)) as [number, number, number, number];
const [E_TYPE, E_NAME, E_TO] = ['type', 'name_or_index', 'to_node'].map((f) => meta.edge_fields.indexOf(f)) as [number, number, number];
const nodeTypes = meta.node_types[0];
const edgeTypes = meta.edge_types[0];
const count = nodes.length / NF;
const firstEdge = new Uint32Array(count + 1);
for (let i = 0, e = 0; i < count; i++) {
  firstEdge[i] = e;
  e += nodes[i * NF + N_EDGES]! * EF;
  firstEdge[i + 1] = e;
}
const skipped = new Set([edgeTypes.indexOf('weak'), edgeTypes.indexOf('shortcut')]);
const nodeName = (i: number): string => strings[nodes[i * NF + N_NAME]!]!;
const nodeType = (i: number): string => nodeTypes[nodes[i * NF + N_TYPE]!]!;
/** Calls `visit` with each followed edge's target and offset. */
function eachEdge(i: number, visit: (j: number, e: number) => void): void {
  for (let e = firstEdge[i]!; e < firstEdge[i + 1]!; e += EF) if (!skipped.has(edges[e + E_TYPE]!)) visit(edges[e + E_TO]! / NF, e);
}

const isRoot = new Uint8Array(count);
const roots: number[] = [];
const edgeRoot = args.root.startsWith('edge:') ? args.root.slice(5) : undefined;
for (let i = 0; i < count; i++) {
  if (edgeRoot === undefined) {
    if (nodeType(i) === 'object' && nodeName(i) === args.root) roots.push(i);
  } else {
    eachEdge(i, (j, e) => {
      if (edgeTypes[edges[e + E_TYPE]!] === 'property' && strings[edges[e + E_NAME]!] === edgeRoot && !roots.includes(j)) roots.push(j);
    });
  }
}
for (const r of roots) isRoot[r] = 1;
if (roots.length === 0) throw new Error(`no root ${args.root} in ${file}`);

// Reachable from the GC roots (node 0) without entering a root.
const elsewhere = new Uint8Array(count);
elsewhere[0] = 1;
const stack = [0];
while (stack.length > 0) {
  eachEdge(stack.pop()!, (j) => {
    if (elsewhere[j] || isRoot[j]) return;
    elsewhere[j] = 1;
    stack.push(j);
  });
}

/** An edge as a path element: its property name, `[]` for elements, map slots and indexes. */
function step(e: number, j: number): string {
  const type = edgeTypes[edges[e + E_TYPE]!];
  const name = type === 'element' || type === 'hidden' ? '[]' : String(strings[edges[e + E_NAME]!]);
  const t = nodeType(j);
  return `${/^\d+$/.test(name) ? '[]' : name}:${t === 'object' ? nodeName(j) : t}`;
}

const path = new Array<string>(count);
const seen = new Uint8Array(count);
const queue = [...roots];
for (const r of roots) {
  seen[r] = 1;
  path[r] = args.root;
}
const bytes = new Map<string, number>();
// An array iterator reads the length at each step: the nodes pushed meanwhile are visited too.
for (const i of queue) {
  bytes.set(path[i]!, (bytes.get(path[i]!) ?? 0) + nodes[i * NF + N_SIZE]!);
  eachEdge(i, (j, e) => {
    if (seen[j] || elsewhere[j] || isRoot[j]) return;
    seen[j] = 1;
    path[j] = `${path[i]!} > ${step(e, j)}`;
    queue.push(j);
  });
}

const rows = new Map<string, number>();
for (const [p, b] of bytes) {
  const parts = p.split(' > ');
  for (let d = 1; d <= Math.min(depth, parts.length); d++) {
    const k = parts.slice(0, d).join(' > ');
    rows.set(k, (rows.get(k) ?? 0) + b);
  }
}
const kb = (b: number): string => (b / roots.length / 1000).toFixed(2).padStart(7);
console.log(`${file}: ${roots.length} roots (${args.root}), KB per root of what only they keep alive`);
for (const [k, b] of [...rows].sort((x, y) => (x[0] < y[0] ? -1 : 1))) {
  if (b / roots.length / 1000 < minKb) continue;
  const parts = k.split(' > ');
  console.log(`${kb(b)}  ${'  '.repeat(parts.length - 1)}${parts[parts.length - 1]!}`);
}
