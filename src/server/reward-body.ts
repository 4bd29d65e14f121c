/**
 * A `POST /get_reward` body read a query at a time. An RL trainer sends its whole rollout batch in one call: parsed
 * whole, a 64 MiB body was one `JSON.parse` in the scoring worker, and every other tenant's job sent to that worker
 * waited behind it (docs/reliability.md, the HTTP scoring workers). Here the elements of `query`, `prompts` and
 * `labels` are found by a scan of the bytes (array-member.ts) and parsed one after another, the worker's event loop
 * turning every {@link PARSE_SLICE_BYTES}, as a batch's items are (batch-items.ts).
 *
 * Same answers, same errors: only a body that is plainly a valid request takes this path. Anything else (invalid JSON
 * anywhere, a member twice or with an escaped key, a member that is no array, more than MAX_BATCH_ITEMS elements in
 * one, anything the schema refuses) gives undefined, and the caller parses the body whole as before, for the answer
 * or the error it always gave. The members are checked at the end by the schema itself, its refinements included;
 * the lengths it does not compare are compared by the reward job as ever.
 */
import { setImmediate as nextTurn } from 'node:timers/promises';
import { arrayMembersElements, type ArrayMembersRest } from '../protocol/array-member.js';
import { MAX_BATCH_ITEMS, getRewardRequestSchema, type GetRewardRequest } from '../protocol/http-bodies.js';
import { PARSE_SLICE_BYTES } from './batch-items.js';

/** The members read in pieces; any other member is parsed (to check it is JSON) and dropped, as the schema drops it. */
const MEMBERS = ['query', 'prompts', 'labels'] as const;

/** The request, checked, or undefined when the body must be parsed whole (see above). */
export async function rewardBodyInSlices(body: Uint8Array): Promise<GetRewardRequest | undefined> {
  const decoder = new TextDecoder();
  const parse = (start: number, end: number): unknown => JSON.parse(decoder.decode(body.subarray(start, end)));
  const scan = arrayMembersElements(body, MEMBERS);
  const lists: unknown[][] = MEMBERS.map(() => []);
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
      // Past the most queries a call may have: refused (query) or left to the reward job's length check; both whole.
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
  const request = Object.fromEntries(MEMBERS.flatMap((key, k) => (rest.found[k] === true ? [[key, lists[k]]] : [])));
  const checked = getRewardRequestSchema.safeParse(request);
  return checked.success ? checked.data : undefined;
}
