/**
 * A `POST /v1/score/batch` body read an item at a time. Parsed whole, a 64 MiB batch was one `JSON.parse` of
 * 0.4-0.8 s in the scoring worker (and a scan of ~0.1 s to find its items would be another): every other tenant's job
 * sent to that worker waited behind it (docs/reliability.md, T31's "Left:"). Here the items are found, parsed and
 * checked one after another, the worker's event loop turning every {@link PARSE_SLICE_BYTES}, so other jobs run
 * between them.
 *
 * Same answers, same errors: only a body that is plainly a valid batch takes this path. Anything else (invalid JSON
 * anywhere, an item the schema refuses, too few or too many items, a shape the scan does not take for certain) gives
 * undefined, and the caller parses the body whole as before, for the answer or the error it always gave.
 */
import { setImmediate as nextTurn } from 'node:timers/promises';
import { arrayMemberElements, type ArrayMemberRest } from '../protocol/array-member.js';
import { MAX_BATCH_ITEMS, scoreRequestSchema, type ScoreRequest } from '../protocol/http-bodies.js';

/** Bytes of items parsed between two turns of the event loop (a 360 KB run parses in ~2-4 ms at load). */
export const PARSE_SLICE_BYTES = 1 << 20;

/** The batch's items, checked, or undefined when the body must be parsed whole (see above). */
export async function batchItemsInSlices(body: Uint8Array): Promise<ScoreRequest[] | undefined> {
  const decoder = new TextDecoder();
  const parse = (start: number, end: number): unknown => JSON.parse(decoder.decode(body.subarray(start, end)));
  const scan = arrayMemberElements(body, 'items');
  const items: ScoreRequest[] = [];
  let since = 0;
  let rest: ArrayMemberRest | undefined;
  try {
    for (let next = scan.next(); ; next = scan.next()) {
      if (next.done === true) {
        rest = next.value;
        break;
      }
      const [start, end] = next.value;
      const item = scoreRequestSchema.safeParse(parse(start, end));
      if (!item.success || items.length === MAX_BATCH_ITEMS) return undefined;
      items.push(item.data);
      since += end - start;
      if (since >= PARSE_SLICE_BYTES) {
        since = 0;
        await nextTurn();
      }
    }
    if (rest === undefined || items.length === 0) return undefined;
    // The other members are dropped by the schema, but a body with an invalid one is invalid JSON: refused as ever.
    for (const [start, end] of rest.others) parse(start, end);
  } catch {
    return undefined;
  }
  return items;
}
