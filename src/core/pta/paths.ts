import type { Pta, PtaNode } from '../scorer-api.js';
import { grownFrom } from './build.js';

function childRefs(pta: Pta, n: PtaNode): number {
  let s = 0;
  for (const c of n.children) s += pta.nodes[c]?.refs ?? 0;
  return s;
}

/** A reference ended at `n`: it is a leaf, or its refs exceed its children's (one reference was a strict prefix of another). */
function isTerminal(pta: Pta, n: PtaNode): boolean {
  return n.children.length === 0 || n.refs > childRefs(pta, n);
}

/**
 * Node-id sequences (root excluded) of every root-to-terminal path, in
 * depth-first order of node creation. A node is terminal when a reference
 * ended there: every leaf, and an inner node whose `refs` exceed the sum of
 * its children's (one reference was a strict prefix of another). So each
 * reference's own path is listed, and adding references never removes a path.
 * Empty paths (an empty reference) are left out.
 *
 * One walk with the current path on a stack, copied only at terminals: the
 * cost is the nodes plus the paths' lengths (each path is a reference's own
 * length, so at most the steps the PTA was built from), never a copy of every
 * prefix (quadratic in depth: 1.7-6.3 s per session start for 5,000-step references).
 */
export function ptaPaths(pta: Pta): number[][] {
  const out: number[][] = [];
  const root = pta.nodes[0];
  if (root === undefined) return out;
  const path: number[] = [];
  // Each entry: a node to enter at `depth`, children pushed in reverse so the first is visited first.
  const stack: Array<{ id: number; depth: number }> = [];
  for (let i = root.children.length - 1; i >= 0; i--) stack.push({ id: root.children[i]!, depth: 0 });
  while (stack.length > 0) {
    const { id, depth } = stack.pop()!; // length > 0: the loop condition
    const n = pta.nodes[id];
    if (n === undefined) continue;
    path.length = depth;
    path.push(id);
    if (isTerminal(pta, n)) out.push(path.slice());
    for (let i = n.children.length - 1; i >= 0; i--) stack.push({ id: n.children[i]!, depth: depth + 1 });
  }
  return out;
}

/** Path counts per PTA, with the sizes they were counted at (a PTA being built still grows in place: then it is counted again). */
const pathCounts = new WeakMap<Pta, { nodes: number; references: number; paths: number }>();

/** The count remembered for `pta`, if it was taken at its current size. */
function knownCount(pta: Pta): number | undefined {
  const known = pathCounts.get(pta);
  return known?.nodes === pta.nodes.length && known.references === pta.references.length ? known.paths : undefined;
}

/**
 * How many paths {@link ptaPaths} lists, without listing them: once per PTA object (every session start
 * asks), and for a grown version from the one it was grown from (one more unless the reference ended
 * where another had).
 */
export function ptaPathCount(pta: Pta): number {
  let count = knownCount(pta);
  if (count !== undefined) return count;
  const growth = grownFrom(pta);
  const before = growth !== undefined ? knownCount(growth.from) : undefined;
  if (growth !== undefined && before !== undefined) {
    count = before + (isNewTerminal(growth.from, growth.end) ? 1 : 0);
  } else {
    count = 0;
    for (let i = 1; i < pta.nodes.length; i++) {
      const n = pta.nodes[i];
      if (n !== undefined && isTerminal(pta, n)) count++;
    }
  }
  pathCounts.set(pta, { nodes: pta.nodes.length, references: pta.references.length, paths: count });
  return count;
}

/** Whether a reference ending at `end` adds a path to `from` (the root, or a node that was no path's end, or a new node). */
export function isNewTerminal(from: Pta, end: number): boolean {
  if (end === 0) return false;
  const before = from.nodes[end];
  return before === undefined || !isTerminal(from, before);
}

/** Depth of every node (root 0), indexed by node id. */
export function nodeDepths(pta: Pta): number[] {
  const depth: number[] = new Array<number>(pta.nodes.length).fill(0);
  for (const n of pta.nodes) {
    if (n.parent !== null) depth[n.id] = (depth[n.parent] ?? 0) + 1;
  }
  return depth;
}
