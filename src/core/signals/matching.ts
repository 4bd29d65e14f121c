/**
 * Maximum bipartite matching kept incrementally (method.md section 8): left
 * vertices (candidate states) arrive one at a time, and one augmenting-path
 * search from each new vertex (Kuhn's algorithm) keeps the matching maximum.
 * An augmenting path that appears when vertex u is added must end at u, the
 * only newly free left vertex, so no other search is ever needed.
 */

import { nextRoomToward, ROOM_MAX, withRoom } from '../memory/small-arrays.js';

/** A growing bipartite graph with a maximum matching. */
export interface IncrementalMatching {
  /** Adds a left vertex with edges to the given right vertices (tried in order); true when the matching grew. */
  addLeft(adjacent: readonly number[]): boolean;
  /** Size of the maximum matching. */
  readonly size: number;
  /** Number of left vertices added. */
  readonly left: number;
  /** Left vertex matched to right vertex `v`, or -1. */
  matchOfRight(v: number): number;
  /** Right vertex matched to left vertex `u`, or -1 (a scan of the right vertices: the inverse is not kept). */
  matchOfLeft(u: number): number;
}

/**
 * Creates an empty incremental matching over `rightCount` right vertices (0..rightCount-1); `expected`: the left
 * vertices expected (0: unknown), toward which its rows grow ({@link nextRoomToward}).
 */
export function createIncrementalMatching(rightCount: number, expected = 0): IncrementalMatching {
  return new Matching(rightCount, expected);
}

/** Right vertices visited by the search under way: one buffer for every matching (a search runs to its end before another starts). */
let visitedScratch = new Uint8Array(256);

/** The first `n` bytes of the shared visited buffer, zeroed (grown when a matching has more right vertices). */
function scratch(n: number): Uint8Array {
  if (visitedScratch.length < n) visitedScratch = new Uint8Array(Math.max(n, 2 * visitedScratch.length));
  visitedScratch.fill(0, 0, n);
  return visitedScratch;
}

/**
 * The search's stack, shared like the visited buffer: the left vertex of each frame and the index of its next edge
 * (an array of frame objects was ~0.2 KB of garbage a step). A left vertex is on it at most once: it holds fewer
 * frames than the matching has left vertices.
 */
let stackU = new Int32Array(64);
let stackI = new Int32Array(64);

function growStack(): void {
  const u = new Int32Array(2 * stackU.length);
  const i = new Int32Array(2 * stackI.length);
  u.set(stackU);
  i.set(stackI);
  stackU = u;
  stackI = i;
}

const MAX_INT16 = 32_767;

/** A class, not an object of closures: a session keeps one per PTA-scored trajectory, and shares the methods. */
class Matching implements IncrementalMatching {
  /** Edges of each left vertex, a row a state: grown by an eighth ({@link withRoom}), not by push's half. */
  private adj: Array<readonly number[]> = [];
  private room = 0;
  /** The left vertex matched to each right one (-1: none); 16 bits a vertex until a left index needs more (the store is off-heap, ~0.25 KB a session less). */
  private matchR: Int16Array | Int32Array;
  private matched = 0;

  constructor(
    private readonly rightCount: number,
    private readonly expected: number,
  ) {
    this.matchR = new Int16Array(rightCount).fill(-1);
  }

  private augment(root: number): boolean {
    const { adj, matchR } = this;
    const visited = scratch(this.rightCount);
    stackU[0] = root;
    stackI[0] = 0;
    let depth = 1;
    while (depth > 0) {
      const top = depth - 1;
      const edges = adj[stackU[top]!]!;
      const i = stackI[top]!;
      if (i >= edges.length) {
        depth--;
        continue;
      }
      stackI[top] = i + 1;
      const v = edges[i]!;
      if (visited[v] === 1) continue;
      visited[v] = 1;
      const w = matchR[v]!;
      if (w !== -1) {
        if (depth === stackU.length) growStack();
        stackU[depth] = w;
        stackI[depth] = 0;
        depth++;
        continue;
      }
      for (let f = 0; f < depth; f++) {
        const u = stackU[f]!;
        matchR[adj[u]![stackI[f]! - 1]!] = u;
      }
      return true;
    }
    return false;
  }

  addLeft(adjacent: readonly number[]): boolean {
    // Indexed: `for...of` over the structural memo's frozen arrays made an iterator object a call.
    // eslint-disable-next-line @typescript-eslint/prefer-for-of -- see above
    for (let k = 0; k < adjacent.length; k++) {
      const v = adjacent[k]!;
      if (!Number.isInteger(v) || v < 0 || v >= this.rightCount) throw new RangeError(`right vertex ${v} out of range`);
    }
    const u = this.adj.length;
    if (u > MAX_INT16 && this.matchR instanceof Int16Array) this.matchR = Int32Array.from(this.matchR);
    if (u === this.room && u < ROOM_MAX) this.adj = withRoom(this.adj, (this.room = nextRoomToward(u, this.expected)));
    this.adj.push(adjacent);
    if (adjacent.length === 0 || !this.augment(u)) return false;
    this.matched++;
    return true;
  }

  get size(): number {
    return this.matched;
  }

  get left(): number {
    return this.adj.length;
  }

  matchOfRight(v: number): number {
    return this.matchR[v] ?? -1;
  }

  matchOfLeft(u: number): number {
    return Number.isInteger(u) && u >= 0 && u < this.adj.length ? this.matchR.indexOf(u) : -1;
  }
}
