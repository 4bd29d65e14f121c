/**
 * The per-PTA half of the structural tracker, shared by every session scored
 * against the same PTA: its non-O node states, their reference paths, and a
 * memo of which nodes a candidate state is equivalent to. Sessions of one
 * task repeat states (the same test run, the same file opened), so most
 * adds skip the equivalence scan over all nodes. Pure memoisation: the key
 * holds every field {@link equivalent} reads, so results are unchanged.
 */
import { equivalent } from '../equivalence.js';
import { ptaPaths } from '../pta/paths.js';
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

/** Ids of token arrays: states of a repeated command share one frozen array (src/core/state/terminal-facts.ts). */
const tokenIds = new WeakMap<readonly string[], number>();
let nextTokenId = 0;

function tokensId(tokens: readonly string[]): number {
  let id = tokenIds.get(tokens);
  if (id === undefined) {
    id = nextTokenId++;
    tokenIds.set(tokens, id);
  }
  return id;
}

/** Every field `equivalent` reads from the candidate (tokens by array identity: equal arrays may miss, never collide). */
function stateKey(s: State): string {
  const range = s.range === undefined ? '' : `${s.range[0]}:${s.range[1]}`;
  return `${s.stage}\u0001${s.hash}\u0001${s.file ?? '\u0002'}\u0001${s.scope ?? '\u0002'}\u0001${range}\u0001${s.command ? tokensId(s.tokens) : -1}`;
}

function build(pta: Pta, tau: number): StructuralReference {
  const index = new Map<number, number>();
  const nodeStates: State[] = [];
  for (const n of pta.nodes) {
    if (n.state === null || n.state.stage === 'O') continue;
    index.set(n.id, nodeStates.length);
    nodeStates.push(n.state);
  }
  const paths = ptaPaths(pta)
    .map((p) => p.flatMap((id) => (index.has(id) ? [index.get(id)!] : [])))
    .filter((p) => p.length > 0);
  const memo = new Map<string, readonly number[]>();
  let indices = 0;
  return {
    nodeStates,
    paths,
    adjacent(state: State): readonly number[] {
      const key = stateKey(state);
      const hit = memo.get(key);
      if (hit !== undefined) return hit;
      const out: number[] = [];
      for (let j = 0; j < nodeStates.length; j++) if (equivalent(nodeStates[j]!, state, tau)) out.push(j);
      const frozen = Object.freeze(out);
      memo.set(key, frozen);
      indices += frozen.length;
      while (memo.size > 1 && (memo.size > ADJACENCY_MEMO_ENTRIES || indices > ADJACENCY_MEMO_INDICES)) {
        const [oldest, list] = memo.entries().next().value!;
        memo.delete(oldest);
        indices -= list.length;
      }
      return frozen;
    },
  };
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
