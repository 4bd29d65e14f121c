/**
 * Scoring bodies read a piece at a time in the scoring worker: `POST /v1/score/batch` an item at a time, `POST
 * /get_reward` a query (prompt, label) at a time, `POST /v1/rank` a run at a time, and the `trajectory` array of `POST
 * /v1/score`, the steps view and a reference upload a slice of records at a time. Parsed whole, a 64 MiB body was one
 * `JSON.parse` of 0.4-0.8 s (a 60.5 MB trajectory of 5,000 records: 1-2 s with its decoding, at load 9), and every
 * other tenant's job sent to that worker waited behind it (docs/reliability.md, the HTTP scoring workers, T99). Here
 * the elements of the body's array members are found by a scan of its bytes (array-member.ts) and parsed a run of
 * neighbours at a time, at most about {@link PARSE_SLICE_BYTES} (an element is never split), the worker's event loop
 * turning between them, so other jobs run meanwhile; the request is then checked by its own schema, refinements
 * included.
 *
 * Same answers, same errors: only a body that is plainly a valid request takes this path. Anything else (invalid JSON
 * anywhere, a member twice or with an escaped or non-ASCII key, a member that is no array, more elements in one than
 * the request may have, anything the schema refuses) gives undefined, and the caller parses the body whole as before,
 * for the answer or the error it always gave.
 */
import { setImmediate as nextTurn } from 'node:timers/promises';
import type { z } from 'zod';
import { arrayMembersElements, type ArrayMembersRest } from '../protocol/array-member.js';
import { jsonStringInSlices } from './string-in-slices.js';
import { getRewardRequestSchema, MAX_BATCH_ITEMS, scoreBatchRequestSchema, type GetRewardRequest, type ScoreRequest } from '../protocol/http-bodies.js';
import { MAX_RANK_RUNS, rankRequestSchema, type RankRequest } from '../protocol/rank-bodies.js';

/** Bytes of elements parsed between two turns of the event loop (a 360 KB run parses in ~2-4 ms at load). */
export const PARSE_SLICE_BYTES = 1 << 20;

/** The batch's items, checked, or undefined when the body must be parsed whole. */
export async function batchItemsInSlices(body: Uint8Array): Promise<ScoreRequest[] | undefined> {
  return (await bodyInSlices(body, ['items'], scoreBatchRequestSchema, MAX_BATCH_ITEMS))?.items;
}

/** The reward request, checked, or undefined when the body must be parsed whole (the lengths the schema does not compare are the reward job's, as ever). */
export function rewardBodyInSlices(body: Uint8Array): Promise<GetRewardRequest | undefined> {
  return bodyInSlices(body, ['query', 'prompts', 'labels'], getRewardRequestSchema, MAX_BATCH_ITEMS);
}

/** The rank request, its runs read a few at a time, checked; undefined when the body must be parsed whole. */
export function rankBodyInSlices(body: Uint8Array): Promise<RankRequest | undefined> {
  return bodyInSlices(body, ['runs'], rankRequestSchema, MAX_RANK_RUNS);
}

/**
 * A body whose `trajectory` may be an array of records (`POST /v1/score`, the steps view, a reference upload), checked
 * by `schema`, its records read a slice at a time, or a log sent as its text, the text a piece at a time; undefined when it
 * must be parsed whole.
 */
export async function trajectoryBodyInSlices<S extends z.ZodType>(body: Uint8Array, schema: S): Promise<z.infer<S> | undefined> {
  return (await bodyInSlices(body, ['trajectory'], schema, Number.POSITIVE_INFINITY)) ?? (textMember(body, 'trajectory') ? bodyInSlices(body, [], schema, 0) : undefined);
}

/**
 * True when `body` is plainly an object whose member `key` is a string longer than a slice: a log sent as its text
 * (T100), read with its other members, the string a piece at a time. One scan of the body's bytes, nothing parsed.
 */
function textMember(body: Uint8Array, key: string): boolean {
  const scan = arrayMembersElements(body, []);
  const rest = scan.next();
  if (rest.done !== true || rest.value === undefined) return false;
  const { others, otherKeys } = rest.value;
  return otherKeys.some((k, i) => k === key && body[others[i]![0]] === 0x22 && others[i]![1] - others[i]![0] > PARSE_SLICE_BYTES);
}

/** A JSON key as JSON.parse reads it, when the scan's Latin-1 reading is that (ASCII); undefined otherwise. */
const asciiKey = (key: string): string | undefined => (/^[\x20-\x7e]*$/.test(key) ? key : undefined);

/**
 * `schema`'s value of `body`, its array members `keys` read a run of neighbouring elements at a time (at most `most`
 * elements each), its other members parsed whole and kept, as JSON.parse keeps them.
 */
async function bodyInSlices<S extends z.ZodType>(body: Uint8Array, keys: readonly string[], schema: S, most: number): Promise<z.infer<S> | undefined> {
  const decoder = new TextDecoder();
  const parse = (start: number, end: number): unknown => JSON.parse(decoder.decode(body.subarray(start, end)));
  const scan = arrayMembersElements(body, keys);
  const lists: unknown[][] = keys.map(() => []);
  // Neighbouring elements of one member parsed together, as one array: one JSON.parse a slice, not one an element (a
  // trajectory of a million `0`s parsed one by one took many times a whole parse's CPU).
  let run: { member: number; start: number; end: number; count: number } | undefined;
  const flush = (): void => {
    if (run === undefined) return;
    const list = lists[run.member]!;
    // The brackets joined as bytes: a string joined of '[', the text and ']' took JSON.parse about twice as long (T99).
    const bytes = new Uint8Array(run.end - run.start + 2);
    bytes[0] = 0x5b;
    bytes.set(body.subarray(run.start, run.end), 1);
    bytes[bytes.length - 1] = 0x5d;
    const parsed = JSON.parse(decoder.decode(bytes)) as unknown[];
    if (parsed.length !== run.count) throw new Error('elements miscounted');
    for (const e of parsed) list.push(e);
    run = undefined;
  };
  let rest: ArrayMembersRest | undefined;
  try {
    for (let next = scan.next(); ; next = scan.next()) {
      if (next.done === true) {
        rest = next.value;
        break;
      }
      const [member, start, end] = next.value;
      if (run !== undefined && run.member !== member) flush();
      run ??= { member, start, end, count: 0 };
      run.end = end;
      run.count++;
      // Past the most elements a request may have: refused by the schema or the job, either way parsed whole.
      if (lists[member]!.length + run.count > most) return undefined;
      if (run.end - run.start >= PARSE_SLICE_BYTES) {
        flush();
        await nextTurn();
      }
    }
    flush();
    if (rest === undefined) return undefined;
    const others: Array<[string, unknown]> = [];
    for (const [i, [start, end]] of rest.others.entries()) {
      const key = asciiKey(rest.otherKeys[i]!);
      if (key === undefined) return undefined;
      // A big string (a log's text) a piece at a time (T100); anything else in one go.
      const text = body[start] === 0x22 && end - start > PARSE_SLICE_BYTES;
      others.push([key, text ? await jsonStringInSlices(body, start, end, PARSE_SLICE_BYTES) : parse(start, end)]);
    }
    const found = rest.found;
    const doc = Object.fromEntries([...others, ...keys.flatMap((key, k): Array<[string, unknown]> => (found[k] === true ? [[key, lists[k]]] : []))]);
    const checked = schema.safeParse(doc);
    return checked.success ? checked.data : undefined;
  } catch {
    return undefined;
  }
}
