/**
 * Scoring bodies read a piece at a time in the scoring worker: `POST /v1/score/batch` an item at a time, `POST
 * /get_reward` a query (prompt, label) at a time. Parsed whole, a 64 MiB body was one `JSON.parse` of 0.4-0.8 s, and
 * every other tenant's job sent to that worker waited behind it (docs/reliability.md, the HTTP scoring workers). Here
 * the elements of the body's array members are found by a scan of its bytes (array-member.ts) and parsed one after
 * another, the worker's event loop turning every {@link PARSE_SLICE_BYTES}, so other jobs run between them; the
 * request is then checked by its own schema, refinements included.
 *
 * Same answers, same errors: only a body that is plainly a valid request takes this path. Anything else (invalid JSON
 * anywhere, a member twice or with an escaped key, a member that is no array, more than MAX_BATCH_ITEMS elements in
 * one, anything the schema refuses) gives undefined, and the caller parses the body whole as before, for the answer
 * or the error it always gave.
 */
import { setImmediate as nextTurn } from 'node:timers/promises';
import type { z } from 'zod';
import { arrayMembersElements, type ArrayMembersRest } from '../protocol/array-member.js';
import { getRewardRequestSchema, MAX_BATCH_ITEMS, scoreBatchRequestSchema, type GetRewardRequest, type ScoreRequest } from '../protocol/http-bodies.js';

/** Bytes of elements parsed between two turns of the event loop (a 360 KB run parses in ~2-4 ms at load). */
export const PARSE_SLICE_BYTES = 1 << 20;

/** The batch's items, checked, or undefined when the body must be parsed whole. */
export async function batchItemsInSlices(body: Uint8Array): Promise<ScoreRequest[] | undefined> {
  return (await bodyInSlices(body, ['items'], scoreBatchRequestSchema))?.items;
}

/** The reward request, checked, or undefined when the body must be parsed whole (the lengths the schema does not compare are the reward job's, as ever). */
export function rewardBodyInSlices(body: Uint8Array): Promise<GetRewardRequest | undefined> {
  return bodyInSlices(body, ['query', 'prompts', 'labels'], getRewardRequestSchema);
}

/** `schema`'s value of `body`, its array members `keys` read an element at a time (any other member is checked to be JSON and dropped, as the schema drops it). */
async function bodyInSlices<S extends z.ZodType>(body: Uint8Array, keys: readonly string[], schema: S): Promise<z.infer<S> | undefined> {
  const decoder = new TextDecoder();
  const parse = (start: number, end: number): unknown => JSON.parse(decoder.decode(body.subarray(start, end)));
  const scan = arrayMembersElements(body, keys);
  const lists: unknown[][] = keys.map(() => []);
  let since = 0;
  let rest: ArrayMembersRest | undefined;
  try {
    for (let next = scan.next(); ; next = scan.next()) {
      if (next.done === true) {
        rest = next.value;
        break;
      }
      const [member, start, end] = next.value;
      const list = lists[member]!;
      // Past the most elements a request may have: refused by the schema or the job, either way parsed whole.
      if (list.length === MAX_BATCH_ITEMS) return undefined;
      list.push(parse(start, end));
      since += end - start;
      if (since >= PARSE_SLICE_BYTES) {
        since = 0;
        await nextTurn();
      }
    }
    if (rest === undefined) return undefined;
    // The other members are dropped by the schema, but a body with an invalid one is invalid JSON: refused as ever.
    for (const [start, end] of rest.others) parse(start, end);
  } catch {
    return undefined;
  }
  const found = rest.found;
  const checked = schema.safeParse(Object.fromEntries(keys.flatMap((key, k) => (found[k] === true ? [[key, lists[k]]] : []))));
  return checked.success ? checked.data : undefined;
}
