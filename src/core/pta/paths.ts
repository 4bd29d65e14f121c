import type { Pta, PtaNode } from '../scorer-api.js';

function childRefs(pta: Pta, n: PtaNode): number {
  let s = 0;
  for (const c of n.children) s += pta.nodes[c]?.refs ?? 0;
  return s;
}

/**
 * Node-id sequences (root excluded) of every root-to-terminal path, in
 * depth-first order of node creation. A node is terminal when a reference
 * ended there: every leaf, and an inner node whose `refs` exceed the sum of
 * its children's (one reference was a strict prefix of another). So each
 * reference's own path is listed, and adding references never removes a path.
 * Empty paths (an empty reference) are left out.
 */
export function ptaPaths(pta: Pta): number[][] {
  const out: number[][] = [];
  const root = pta.nodes[0];
  if (root === undefined) return out;
  const stack: Array<{ id: number; path: number[] }> = [];
  for (let i = root.children.length - 1; i >= 0; i--) stack.push({ id: root.children[i]!, path: [] });
  while (stack.length > 0) {
    const { id, path } = stack.pop() as { id: number; path: number[] };
    const n = pta.nodes[id];
    if (n === undefined) continue;
    const here = [...path, id];
    if (n.children.length === 0 || n.refs > childRefs(pta, n)) out.push(here);
    for (let i = n.children.length - 1; i >= 0; i--) stack.push({ id: n.children[i]!, path: here });
  }
  return out;
}

/** Path counts per PTA, with the sizes they were counted at (a PTA being built still grows: then it is counted again). */
const pathCounts = new WeakMap<Pta, { nodes: number; references: number; paths: number }>();

/** `ptaPaths(pta).length`, counted once per PTA: every session started against a task's PTA reports it. */
export function ptaPathCount(pta: Pta): number {
  const known = pathCounts.get(pta);
  if (known?.nodes === pta.nodes.length && known.references === pta.references.length) return known.paths;
  const paths = ptaPaths(pta).length;
  pathCounts.set(pta, { nodes: pta.nodes.length, references: pta.references.length, paths });
  return paths;
}

/** Depth of every node (root 0), indexed by node id. */
export function nodeDepths(pta: Pta): number[] {
  const depth: number[] = new Array<number>(pta.nodes.length).fill(0);
  for (const n of pta.nodes) {
    if (n.parent !== null) depth[n.id] = (depth[n.parent] ?? 0) + 1;
  }
  return depth;
}
