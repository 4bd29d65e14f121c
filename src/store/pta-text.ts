/**
 * A PTA's JSON text built a slice of nodes at a time, yielding to the event loop between slices: a
 * 16 MB PTA serialised in one `JSON.stringify` held every other client (a ping stalled up to 10 s in
 * issue 25's trial, with larger PTAs); in slices each turn costs about a millisecond. The text is
 * exactly `ptaToJson(pta)`.
 */
import { knownPtaJsonBytes, rememberPtaJsonBytes } from '../core/pta/index.js';
import type { Pta } from '../core/scorer-api.js';

/** Nodes serialised per turn of the event loop. */
const NODES_PER_TURN = 2000;

const nextTurn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/** `ptaToJson(pta)`, in slices (key order as the object holds it, undefined fields left out, as `JSON.stringify` does). */
export async function ptaJsonInSlices(pta: Pta): Promise<string> {
  const parts: string[] = [];
  for (const [key, value] of Object.entries(pta)) {
    if (value === undefined) continue;
    const name = `${parts.length === 0 ? '{' : ','}${JSON.stringify(key)}:`;
    if (key !== 'nodes') {
      parts.push(name + JSON.stringify(value));
      continue;
    }
    const nodes = value as Pta['nodes'];
    parts.push(`${name}[`);
    for (let i = 0; i < nodes.length; i += NODES_PER_TURN) {
      if (i > 0) await nextTurn();
      const slice = nodes.slice(i, i + NODES_PER_TURN).map((n) => JSON.stringify(n));
      parts.push((i > 0 ? ',' : '') + slice.join(','));
    }
    parts.push(']');
  }
  parts.push(parts.length === 0 ? '{}' : '}');
  return parts.join('');
}

/** Measures `ptaJsonBytes(pta)` a slice of nodes at a time and remembers it (a PTA read from a file or Redis, before its first growth). */
export async function measurePtaInSlices(pta: Pta): Promise<number> {
  const known = knownPtaJsonBytes(pta);
  if (known !== undefined) return known;
  let bytes = 0;
  for (const [key, value] of Object.entries(pta)) {
    if (value === undefined) continue;
    bytes += Buffer.byteLength(JSON.stringify(key)) + 2; // the key, its colon, and the brace or comma before it
    if (key !== 'nodes') {
      bytes += Buffer.byteLength(JSON.stringify(value));
      continue;
    }
    const nodes = value as Pta['nodes'];
    bytes += 2 + Math.max(0, nodes.length - 1); // brackets and commas
    for (let i = 0; i < nodes.length; i += NODES_PER_TURN) {
      if (i > 0) await nextTurn();
      for (let j = i; j < Math.min(nodes.length, i + NODES_PER_TURN); j++) bytes += Buffer.byteLength(JSON.stringify(nodes[j]));
    }
  }
  bytes += bytes === 0 ? 2 : 1; // the closing brace ('{}' when empty)
  rememberPtaJsonBytes(pta, bytes);
  return bytes;
}
