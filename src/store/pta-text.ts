/**
 * A PTA's JSON and its growth on a thread other clients share, a slice at a time: a 16 MB PTA serialised
 * in one `JSON.stringify`, or a 5,000-step reference merged in one go, held every other client (a ping
 * stalled up to 10 s in issue 25's trial). Between slices the event loop turns. The text is exactly
 * `ptaToJson(pta)`.
 */
import { knownPtaJsonBytes, ptaFromJson, ptaFromValueInSteps, rememberPtaJsonBytes, statesFromJson } from '../core/pta/index.js';
import type { Pta } from '../core/scorer-api.js';
import type { State } from '../core/types.js';
import { err, ok, type Result } from '../errors.js';
import { setImmediate as nextTurn } from 'node:timers/promises';

/**
 * Characters of JSON per slice when a PTA is written (nodes, files, references: every array, element by element).
 * Slices of 2,000 nodes were 2 MB of a 10,000-node PTA with long commands: each held the thread 40-110 ms to
 * stringify and hand to the socket, and `GET /v1/tasks/:task/pta` of it stalled everyone 100-220 ms at a time.
 */
const SLICE_CHARS = 64 * 1024;
/** A reference's states written and read back per slice. */
const STATES_PER_SLICE = 500;
/** A growth in steps runs this long before the event loop gets a turn. */
const STEP_BUDGET_MS = 5;

/** The elements of `items` stringified and joined by commas, in pieces of about SLICE_CHARS (none for no item). */
function* elementPieces(items: readonly unknown[]): Generator<string> {
  let parts: string[] = [];
  let chars = 0;
  for (const item of items) {
    const text = JSON.stringify(item);
    parts.push(text);
    chars += text.length;
    if (chars < SLICE_CHARS) continue;
    yield parts.join(',');
    parts = [];
    chars = 0;
  }
  if (parts.length > 0) yield parts.join(',');
}

/** `JSON.stringify(items)` in pieces of about SLICE_CHARS, the event loop turning between them (`head` goes first). */
async function* arrayChunks(head: string, items: readonly unknown[]): AsyncGenerator<string> {
  let open = `${head}[`;
  for (const piece of elementPieces(items)) {
    if (open === ',') await nextTurn();
    yield open + piece;
    open = ',';
  }
  yield open === ',' ? ']' : `${open}]`;
}

/** `ptaToJson(pta)` in pieces, the event loop turning between them (see {@link objectJsonChunks}). */
export function ptaJsonChunks(pta: Pta): AsyncGenerator<string> {
  return objectJsonChunks(pta);
}

/**
 * `JSON.stringify(value)` of a plain object in pieces, the event loop turning between them: each array field, of it
 * or of a plain object in it, in pieces of about SLICE_CHARS, every other field in one go (key order as the object
 * holds it, undefined fields left out, as `JSON.stringify` does). A PTA, and a session's step view (live-view.ts:
 * its report's waste list, 1.3 MB at 20,000 steps, is a field of a field).
 */
export function objectJsonChunks(value: object): AsyncGenerator<string> {
  return fieldChunks('', value);
}

/** `head` and then `JSON.stringify(value)` in pieces (see {@link objectJsonChunks}). */
async function* fieldChunks(head: string, value: object): AsyncGenerator<string> {
  let first = true;
  for (const [key, field] of Object.entries(value)) {
    if (field === undefined) continue;
    const name = `${first ? `${head}{` : ','}${JSON.stringify(key)}:`;
    first = false;
    if (Array.isArray(field)) yield* arrayChunks(name, field);
    else if (plainObject(field)) yield* fieldChunks(name, field);
    else yield name + JSON.stringify(field);
  }
  yield first ? `${head}{}` : '}';
}

/** An object `JSON.stringify` writes as its own fields (no class instance, which may say otherwise with `toJSON`). */
function plainObject(x: unknown): x is object {
  if (typeof x !== 'object' || x === null) return false;
  const proto: unknown = Object.getPrototypeOf(x);
  return proto === Object.prototype || proto === null;
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

/**
 * A reference's states as JSON arrays of about SLICE_CHARS each: what a scoring worker sends back to the main
 * thread. Sent as objects, a 5,000-step reference was rebuilt by the structured clone on the main thread in one
 * go (140-500 ms); strings cross as they are, and {@link statesFromJsonSlices} parses them a slice a turn.
 */
export function statesJsonSlices(states: readonly State[]): string[] {
  return [...elementPieces(states)].map((piece) => `[${piece}]`);
}

/** The states {@link statesJsonSlices} wrote (this server's own worker: not checked again), one slice a turn. */
export async function statesFromJsonSlices(slices: readonly string[]): Promise<State[]> {
  const states: State[] = [];
  for (const slice of slices) {
    await nextTurn();
    for (const s of JSON.parse(slice) as State[]) states.push(s);
  }
  return states;
}

/**
 * Characters scanned between two turns of the event loop when a PTA's JSON is read in slices (1 Mi took 16-35 ms
 * at load 3-6 on 2 cores, the longest turn of a replica reading a 5 MB chain element once ioredis no longer decoded it whole).
 */
const SCAN_CHARS = 256 * 1024;
/** Characters of an array parsed in one slice when JSON is read back in slices (2,000 nodes were 2 MB; 256 Ki: 9-16 ms of parse and check at load 3-6). */
const PARSE_SLICE_CHARS = 128 * 1024;

const QUOTE = 34,
  BACKSLASH = 92,
  COMMA = 44;

/** From `open` (a `[`): where that array closes, and the commas between its elements about every PARSE_SLICE_CHARS; undefined when it never closes. */
async function arraySpan(text: string, open: number): Promise<{ open: number; close: number; cuts: number[] } | undefined> {
  let depth = 0;
  let inString = false;
  let last = open;
  const cuts: number[] = [];
  for (let i = open; i < text.length; i++) {
    if (i > open && (i - open) % SCAN_CHARS === 0) await nextTurn();
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === BACKSLASH) i++;
      else if (c === QUOTE) inString = false;
    } else if (c === QUOTE) inString = true;
    else if (c === 123 || c === 91)
      depth++; // { or [
    else if (c === 125 || c === 93) {
      // } or ]
      if (--depth === 0) return { open, close: i, cuts };
    } else if (c === COMMA && depth === 1 && i - last >= PARSE_SLICE_CHARS) {
      cuts.push(i);
      last = i;
    }
  }
  return undefined;
}

/** Where the top-level `nodes` array of a PTA's JSON text sits, with the cuts of {@link arraySpan}. */
async function nodesSpan(text: string): Promise<{ open: number; close: number; cuts: number[] } | undefined> {
  let depth = 0;
  let inString = false;
  let stringStart = -1;
  let lastKey = '';
  for (let i = 0; i < text.length; i++) {
    if (i > 0 && i % SCAN_CHARS === 0) await nextTurn();
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === BACKSLASH) i++;
      else if (c === QUOTE) {
        inString = false;
        if (depth === 1) lastKey = i - stringStart < 16 ? text.slice(stringStart, i + 1) : '';
      }
      continue;
    }
    if (c === QUOTE) {
      inString = true;
      stringStart = i;
    } else if (c === 123 || c === 91) {
      // { or [
      depth++;
      if (depth === 2 && c === 91 && lastKey === '"nodes"') return arraySpan(text, i);
    } else if (c === 125 || c === 93) depth--; // } or ]
  }
  return undefined;
}

/**
 * `statesFromJson(text)` a slice of states at a time, the event loop turning between them: a version's 5,000
 * states (5 MB) read back from a Redis chain in one go held a replica 0.3 s. Errors name the state by its index in
 * the whole array; text that is not one array is read whole (the error is statesFromJson's).
 */
export async function statesFromJsonInSlices(text: string): Promise<Result<State[], string>> {
  const start = text.search(/\S/);
  const span = text.charCodeAt(start) === 91 ? await arraySpan(text, start) : undefined;
  if (span === undefined || text.slice(span.close + 1).trim() !== '') return statesFromJson(text);
  const states: State[] = [];
  let from = span.open + 1;
  for (const to of [...span.cuts, span.close]) {
    if (from > span.open + 1) await nextTurn();
    const part = statesFromJson(`[${text.slice(from, to)}]`);
    const at = states.length;
    if (!part.ok) return err(part.error.replace(/^states\[(\d+)\]/, (_, k: string) => `states[${at + Number(k)}]`));
    for (const s of part.value) states.push(s);
    from = to + 1;
  }
  return ok(states);
}

/**
 * `ptaFromJson(text)` with the nodes array parsed a slice of nodes at a time, the event loop turning between
 * them: another replica's 16 MB chain head parsed whole held its thread 600 ms (the PTA-growth drill). Falls
 * back to a whole parse when the text has no top-level `nodes` array (the check then names the problem).
 */
export async function ptaFromJsonInSlices(text: string): Promise<Result<Pta, string>> {
  const span = await nodesSpan(text);
  if (span === undefined) return ptaFromJson(text);
  const nodes: unknown[] = [];
  let from = span.open + 1;
  for (const to of [...span.cuts, span.close]) {
    await nextTurn();
    let part: unknown;
    try {
      part = JSON.parse(`[${text.slice(from, to)}]`);
    } catch (e) {
      return err(`PTA: invalid JSON (${e instanceof Error ? e.message : String(e)})`);
    }
    for (const n of part as unknown[]) nodes.push(n);
    from = to + 1;
  }
  let rest: unknown;
  try {
    rest = JSON.parse(`${text.slice(0, span.open)}[]${text.slice(span.close + 1)}`);
  } catch (e) {
    return err(`PTA: invalid JSON (${e instanceof Error ? e.message : String(e)})`);
  }
  if (typeof rest !== 'object' || rest === null || Array.isArray(rest)) return ptaFromJson(text);
  (rest as { nodes: unknown[] }).nodes = nodes; // the key is already there: its place in the key order is kept
  // The structure checked in steps too: at once it held the thread 50-130 ms for 10,000 nodes.
  return runInSteps(ptaFromValueInSteps(rest));
}
