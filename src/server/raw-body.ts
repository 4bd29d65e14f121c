/**
 * A request body collected as raw bytes for the scoring workers, copied into one buffer as its chunks
 * arrive: collecting the chunks and joining them at the end (fastify's `parseAs: 'buffer'`) copied a
 * 13.6 MB reference in one go on the event loop. The buffer owns its memory, so it moves to a worker
 * without another copy. A large body a worker will parse is not held here at all: its chunks go on as
 * they arrive (ported-body.ts, T95).
 */
import type { IncomingMessage } from 'node:http';
import { SteplensError } from '../errors.js';
import type { BodyHold } from './body-receipts.js';
import { BodyPorter, PORTED_FROM_BYTES, type PortedBody } from './ported-body.js';
import { BodyBlocks } from './body-blocks.js';

/** Chunks of a request body taken in one turn of the event loop; the rest wait for the next turns (T110). */
export const CHUNKS_PER_TURN = 256;

/**
 * The body of `payload`, at most `limit` bytes (`too_large` past it, `bad_message` when it ends short of its declared
 * length). With `hold`, its bytes are taken from the budget of bodies being received first (body-receipts.ts: the
 * declared length before it is allocated, else each piece as it comes) and given back once it is read, refused or cut.
 * With `port` (a worker will parse it), a body of {@link PORTED_FROM_BYTES} or more, or of no declared length, is
 * handed on chunk by chunk as it arrives (ported-body.ts, T95) rather than held here.
 */
export function collectBody(payload: IncomingMessage, limit: number, hold?: BodyHold, port = false): Promise<Buffer | PortedBody> {
  const declared = Number(payload.headers['content-length']);
  const sized = Number.isSafeInteger(declared) && declared >= 0 && declared <= limit;
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let received = 0;
    let failed = false;
    const fail = (error: SteplensError): void => {
      hold?.release();
      porter?.abort();
      if (failed) return;
      failed = true;
      payload.resume(); // read and drop the rest: the client gets the answer instead of a broken pipe
      reject(error);
    };
    // A request cut or timed out before its end gives its bytes back too.
    payload.once('close', () => hold?.release());
    // Taken before the buffer is allocated: a declared length costs its bytes at once.
    const refused = sized ? hold?.take(declared) : undefined;
    const porter = port && refused === undefined && (!sized || declared >= PORTED_FROM_BYTES) ? new BodyPorter() : undefined;
    const into = sized && refused === undefined && porter === undefined ? Buffer.allocUnsafeSlow(declared) : undefined;
    const capacity = porter !== undefined && sized ? declared : (into?.length ?? limit);
    // Neither sized nor ported (no worker): small chunks kept in blocks, not a Buffer each (body-blocks.ts, T110).
    const blocks = into === undefined && porter === undefined ? new BodyBlocks((bytes) => void chunks.push(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength))) : undefined;
    // At most CHUNKS_PER_TURN chunks a turn, the request paused until the next (T110): a body of 1-byte chunks
    // (chunked transfer coding) is a `data` event a byte, ~11,000 a socket read, 32 reads a turn.
    let inTurn = 0;
    let paused = false;
    const nextTurn = (): void => {
      inTurn = 0;
      if (!paused) return;
      paused = false;
      if (!failed) payload.resume();
    };
    payload.on('data', (chunk: Buffer) => {
      if (inTurn++ === 0) setImmediate(nextTurn);
      if (inTurn === CHUNKS_PER_TURN && !failed) {
        paused = true;
        payload.pause();
      }
      if (failed) return;
      if (received + chunk.length > capacity) {
        return fail(sized ? new SteplensError('bad_message', `body: longer than its content-length of ${declared} bytes`) : new SteplensError('too_large', `body exceeds ${limit} bytes`));
      }
      const over = sized ? undefined : hold?.take(chunk.length);
      if (over !== undefined) return fail(over);
      if (porter) porter.write(chunk);
      else if (into) chunk.copy(into, received);
      else blocks?.write(chunk);
      received += chunk.length;
    });
    payload.once('end', () => {
      if (failed) return;
      if (sized && received !== declared) return fail(new SteplensError('bad_message', `body: ${received} bytes of its content-length of ${declared}`));
      // From here the scoring queue counts the bytes (score-pool.ts).
      hold?.release();
      blocks?.flush();
      resolve(porter?.end() ?? into ?? Buffer.concat(chunks, received));
    });
    payload.once('error', (error) => fail(new SteplensError('bad_message', `body: ${error.message}`)));
    if (refused !== undefined) fail(refused);
  });
}
