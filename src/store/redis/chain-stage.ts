/**
 * A new chain's PTA JSON sent to Redis in pieces. Sent as one script argument, a 16 MB PTA held the sending
 * replica's thread for half a second (the string encoded onto the socket in one go: the PTA-growth drill's
 * profile); staged under its own key in pieces of a few hundred KB instead (SET, then APPEND), with the
 * event loop turning between them, and moved into the chain by the growth script (pta-scripts.ts: GROW_CHAIN).
 * A PTA whose JSON fits in one piece goes inline, as before.
 */
import { randomUUID } from 'node:crypto';
import type { Pta } from '../../core/scorer-api.js';
import { SteplensError } from '../../errors.js';
import { ptaJsonChunks } from '../pta-text.js';
import type { RedisKeys } from './keys.js';
import type { RedisLink } from './link.js';

/** Characters per piece by default (a piece is encoded and written to the socket in one go). */
export const STAGE_PIECE_CHARS = 256 * 1024;
/** A stage left behind (a growth that failed half-way) expires after this long. */
const STAGE_TTL_MS = 10 * 60_000;

/** A PTA's JSON as the growth script takes it: inline (`json`), or staged under `stage` (then `json` is ''). */
export interface ChainJson {
  json: string;
  stage?: string;
  /** The JSON's UTF-8 bytes. */
  bytes: number;
}

/** `text` cut into pieces of at most `size` characters, never between the two halves of a surrogate pair. */
export function* pieces(text: string, size: number): Generator<string> {
  let at = 0;
  while (at < text.length) {
    let end = Math.min(text.length, at + size);
    const last = text.charCodeAt(end - 1);
    if (end < text.length && last >= 0xd800 && last <= 0xdbff) end = end - 1 > at ? end - 1 : end + 1; // a 1-character size keeps the pair whole
    yield text.slice(at, end);
    at = end;
  }
}

/**
 * Sends `pta`'s JSON (exactly `ptaToJson(pta)`) to Redis, in pieces of at most `pieceChars` characters when
 * it does not fit in one. A failed piece throws `unavailable` saying nothing was stored (the growth script
 * has not run; the partial stage expires).
 */
export async function stageChainJson(link: RedisLink, keys: RedisKeys, pta: Pta, pieceChars = STAGE_PIECE_CHARS): Promise<ChainJson> {
  let pending = '';
  let bytes = 0;
  let stage: string | undefined;
  const send = async (piece: string): Promise<void> => {
    if (stage === undefined) {
      const key = keys.stage(randomUUID());
      stage = key;
      await link.run('grow_stage', (r) => r.set(key, piece, 'PX', STAGE_TTL_MS));
    } else {
      const key = stage;
      await link.run('grow_stage', (r) => r.append(key, piece));
    }
  };
  try {
    for await (const part of ptaJsonChunks(pta)) {
      bytes += Buffer.byteLength(part);
      pending += part;
      if (pending.length <= pieceChars) continue;
      // Whole pieces go now; the last (at most a piece) waits for more.
      const cut = [...pieces(pending, pieceChars)];
      pending = cut.pop() ?? '';
      for (const piece of cut) await send(piece);
    }
    if (stage === undefined) return { json: pending, bytes };
    if (pending !== '') await send(pending);
    return { json: '', stage, bytes };
  } catch (error) {
    const left = stage;
    if (left !== undefined) void link.run('grow_stage', (r) => r.del(left)).catch(() => undefined);
    if (error instanceof SteplensError && error.code === 'unavailable') throw new SteplensError('unavailable', `task ${pta.task}: nothing was stored: ${error.message}`, { cause: error });
    throw error;
  }
}
