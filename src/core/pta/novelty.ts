/**
 * How much one more reference would change a PTA, without changing it: the nodes its insertion would open.
 * Every non-O node counts towards Φcov's denominator, so the nodes a reference opens lower Φcov for every
 * run scored against the PTA afterwards (docs/reliability.md, "Shared learning"). The walk is the insertion's
 * (build.ts): follow the most confident equivalent child; the first state without one opens a node, and so
 * does every later state (they hang below the new node).
 */
import { conf } from '../equivalence.js';
import type { Pta, PtaNode } from '../scorer-api.js';
import type { State } from '../types.js';

/** Nodes `states` would add to `pta` if inserted as a reference. */
export function nodesOpened(pta: Pta, states: readonly State[]): number {
  let u: PtaNode | undefined = pta.nodes[0];
  for (let i = 0; i < states.length; i++) {
    const s = states[i]!; // i < states.length
    let best: PtaNode | undefined;
    let bestConf = -1;
    for (const c of u?.children ?? []) {
      const cs = pta.nodes[c]?.state;
      if (cs?.stage !== s.stage) continue;
      const cf = conf(cs, s);
      if (cf >= pta.tau && cf > bestConf) {
        best = pta.nodes[c];
        bestConf = cf;
      }
    }
    if (best === undefined) return states.length - i;
    u = best;
  }
  return 0;
}
