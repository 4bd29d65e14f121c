/**
 * A PTA's JSON and its growth on a thread other clients share, a slice at a time: a 16 MB PTA serialised
 * in one `JSON.stringify`, or a 5,000-step reference merged in one go, held every other client (a ping
 * stalled up to 10 s in issue 25's trial). Between slices the event loop turns. The text is exactly
 * `ptaToJson(pta)`.
 */
import { knownPtaJsonBytes, rememberPtaJsonBytes, statesFromJson } from '../core/pta/index.js';
import type { Pta } from '../core/scorer-api.js';
import type { State } from '../core/types.js';
import { err, ok, type Result } from '../errors.js';

/** Nodes serialised per slice. */
const NODES_PER_SLICE = 2000;
/** A reference's states written and read back per slice. */
const STATES_PER_SLICE = 500;
/** A growth in steps runs this long before the event loop gets a turn. */
const STEP_BUDGET_MS = 5;

const nextTurn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/** `ptaToJson(pta)` in pieces, the event loop turning between them (key order as the object holds it, undefined fields left out, as `JSON.stringify` does). */
export async function* ptaJsonChunks(pta: Pta): AsyncGenerator<string> {
  let first = true;
  for (const [key, value] of Object.entries(pta)) {
    if (value === undefined) continue;
    const name = `${first ? '{' : ','}${JSON.stringify(key)}:`;
    first = false;
    if (key !== 'nodes') {
      yield name + JSON.stringify(value);
      continue;
    }
    const nodes = value as Pta['nodes'];
    let head = `${name}[`;
    for (let i = 0; i < nodes.length; i += NODES_PER_SLICE) {
      if (i > 0) await nextTurn();
      yield (
        head +
        nodes
          .slice(i, i + NODES_PER_SLICE)
          .map((n) => JSON.stringify(n))
          .join(',')
      );
      head = ',';
    }
    yield nodes.length === 0 ? `${head}]` : ']';
  }
  yield first ? '{}' : '}';
}

/** `ptaToJson(pta)`, built in slices (see {@link ptaJsonChunks}). */
export async function ptaJsonInSlices(pta: Pta): Promise<string> {
  const parts: string[] = [];
  for await (const part of ptaJsonChunks(pta)) parts.push(part);
  return parts.join('');
}

/** Measures `ptaJsonBytes(pta)` a slice of nodes at a time and remembers it (a PTA read from a file or Redis, before its first growth). */
export async function measurePtaInSlices(pta: Pta): Promise<number> {
  const known = knownPtaJsonBytes(pta);
  if (known !== undefined) return known;
  let bytes = 0;
  for await (const part of ptaJsonChunks(pta)) bytes += Buffer.byteLength(part);
  rememberPtaJsonBytes(pta, bytes);
  return bytes;
}

/** Runs a growth in steps (core/pta: `growWithinSteps`) to its end, giving the event loop a turn every few milliseconds. */
export async function runInSteps<T>(steps: Generator<void, T>): Promise<T> {
  let since = performance.now();
  for (;;) {
    const r = steps.next();
    if (r.done === true) return r.value;
    if (performance.now() - since >= STEP_BUDGET_MS) {
      await nextTurn();
      since = performance.now();
    }
  }
}

/**
 * A reference's states as a store keeps them (`JSON.stringify(states)`) and as every reader reads them back
 * (`statesFromJson` of that text, checked), a slice of states at a time: a 5,000-step reference's 13 MB
 * written and parsed in one go held the thread a hundred milliseconds and more.
 */
export async function statesJsonInSlices(states: readonly State[]): Promise<Result<{ json: string; states: State[] }, string>> {
  const parts: string[] = [];
  const read: State[] = [];
  for (let i = 0; i < states.length; i += STATES_PER_SLICE) {
    if (i > 0) await nextTurn();
    const text = JSON.stringify(states.slice(i, i + STATES_PER_SLICE));
    const back = statesFromJson(text);
    // Errors name the state by its index in the whole reference.
    if (!back.ok) return err(back.error.replace(/^states\[(\d+)\]/, (_, k: string) => `states[${i + Number(k)}]`));
    parts.push(text.slice(1, -1));
    for (const s of back.value) read.push(s);
  }
  return ok({ json: `[${parts.join(',')}]`, states: read });
}
