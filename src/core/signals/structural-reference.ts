/**
 * The per-PTA half of the structural tracker, shared by every session scored
 * against the same PTA: its non-O node states, their reference paths, and a
 * memo of which nodes a candidate state is equivalent to. Sessions of one
 * task repeat states (the same test run, the same file opened), so most
 * adds skip the equivalence scan over all nodes. Pure memoisation: the key
 * holds every field {@link equivalent} reads, so results are unchanged.
 */
import { equivalent } from '../equivalence.js';
import { AdjacencyMemo } from './adjacency-memo.js';
import { grownFrom } from '../pta/build.js';
import { isNewTerminal, ptaPaths } from '../pta/paths.js';
import type { Pta } from '../scorer-api.js';
import type { State } from '../types.js';

/** What every tracker of one PTA (and τ) shares. */
export interface StructuralReference {
  /** Non-O node states, in node order (right vertices of the matching). */
  readonly nodeStates: readonly State[];
  /** Reference paths as indices into `nodeStates` (O nodes dropped, empty paths skipped). */
  readonly paths: ReadonlyArray<readonly number[]>;
  /** Indices of the nodes equivalent to `state` (frozen, shared: do not mutate). */
  adjacent(state: State): readonly number[];
}

/** Memoised candidate states per PTA, and node indices held over all of them (a bound in bytes: 8 per index). */
export const ADJACENCY_MEMO_ENTRIES = 4096;
export const ADJACENCY_MEMO_INDICES = 262_144;

const byPta = new WeakMap<Pta, Map<number, StructuralReference>>();

/** Reference paths as indices into the non-O node states (O nodes dropped, empty paths skipped): plain loops, linear in the paths' length (a session start on a 40,000-node PTA built them with a map and a flatMap per path). */
function nonOPaths(pta: Pta, index: Int32Array): number[][] {
  const out: number[][] = [];
  for (const nodes of ptaPaths(pta)) {
    const path = toIndices(nodes, index);
    if (path.length > 0) out.push(path);
  }
  return out;
}

function toIndices(nodes: readonly number[], index: Int32Array): number[] {
  const path: number[] = [];
  for (const id of nodes) {
    const j = index[id]!; // node ids are < nodes.length
    if (j >= 0) path.push(j);
  }
  return path;
}

/** The non-O node states of `pta` from node `from` on, appended to `nodeStates` and indexed in `index`. */
function indexNodes(pta: Pta, from: number, index: Int32Array, nodeStates: State[]): void {
  for (let i = from; i < pta.nodes.length; i++) {
    const n = pta.nodes[i]!; // i < nodes.length
    if (n.state === null || n.state.stage === 'O') continue;
    index[n.id] = nodeStates.length;
    nodeStates.push(n.state);
  }
}

/** The root-to-`end` node ids (root excluded), walking parents. */
function pathTo(pta: Pta, end: number): number[] {
  const ids: number[] = [];
  for (let n = pta.nodes[end]; n !== undefined && n.parent !== null; n = pta.nodes[n.parent]) ids.push(n.id);
  return ids.reverse();
}

/** The parts a structural reference is made of (kept to extend it for a grown version). */
interface Parts {
  index: Int32Array;
  nodeStates: State[];
  paths: number[][];
}

const partsOf = new WeakMap<StructuralReference, Parts>();

/**
 * The parts of `pta`'s reference: extended from the version it was grown from when that one's are at
 * hand (its nodes are a prefix of these, and its paths these but the new reference's own when that one
 * ended where no reference had: addReference only adds nodes and paths), else built from scratch. The
 * paths may then be in another order than {@link ptaPaths}'s; recall is their maximum, so scores are the same.
 */
function partsFor(pta: Pta, tau: number): Parts {
  const growth = grownFrom(pta);
  const before = growth !== undefined ? byPta.get(growth.from)?.get(tau) : undefined;
  const prev = before !== undefined ? partsOf.get(before) : undefined;
  if (growth === undefined || prev === undefined) {
    const index = new Int32Array(pta.nodes.length).fill(-1);
    const nodeStates: State[] = [];
    indexNodes(pta, 0, index, nodeStates);
    return { index, nodeStates, paths: nonOPaths(pta, index) };
  }
  const index = new Int32Array(pta.nodes.length).fill(-1);
  index.set(prev.index);
  const nodeStates = prev.nodeStates.slice();
  indexNodes(pta, growth.from.nodes.length, index, nodeStates);
  const paths = prev.paths.slice();
  if (isNewTerminal(growth.from, growth.end)) {
    const path = toIndices(pathTo(pta, growth.end), index);
    if (path.length > 0) paths.push(path);
  }
  return { index, nodeStates, paths };
}

function build(pta: Pta, tau: number): StructuralReference {
  const parts = partsFor(pta, tau);
  const { nodeStates, paths } = parts;
  const memo = new AdjacencyMemo(ADJACENCY_MEMO_ENTRIES, ADJACENCY_MEMO_INDICES);
  const ref: StructuralReference = {
    nodeStates,
    paths,
    adjacent(state: State): readonly number[] {
      const hit = memo.get(state);
      if (hit !== undefined) return hit;
      const out: number[] = [];
      for (let j = 0; j < nodeStates.length; j++) if (equivalent(nodeStates[j]!, state, tau)) out.push(j);
      const frozen = Object.freeze(out);
      memo.set(state, frozen);
      return frozen;
    },
  };
  partsOf.set(ref, parts);
  return ref;
}

/** The shared reference half for `pta` at `tau` (built once per PTA object). */
export function structuralReference(pta: Pta, tau: number): StructuralReference {
  let perTau = byPta.get(pta);
  if (!perTau) {
    perTau = new Map();
    byPta.set(pta, perTau);
  }
  let ref = perTau.get(tau);
  if (!ref) {
    ref = build(pta, tau);
    perTau.set(tau, ref);
  }
  return ref;
}
