/**
 * T110: a request body in tiny chunks (chunked transfer coding: a `data` event a chunk, however small). The chunks
 * are gathered into blocks before they are posted to the scoring worker (on `main`: a message a chunk, ~450 bytes
 * of native memory each), and a body takes at most CHUNKS_PER_TURN chunks a turn of the event loop (on `main`: every
 * chunk of a read at once). The body is a real run's log, a byte a chunk; it arrives whole either way.
 */
import { readFile } from 'node:fs/promises';
import type { IncomingMessage } from 'node:http';
import { Readable } from 'node:stream';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { receiveMessageOnPort } from 'node:worker_threads';
import { describe, expect, it } from 'vitest';
import { BODY_BLOCK_BYTES } from '../../src/server/body-blocks.js';
import { BodyPorter, bodyBytesOf } from '../../src/server/ported-body.js';
import { CHUNKS_PER_TURN, collectBody } from '../../src/server/raw-body.js';
import { ASTROID } from './helpers.js';

/** The run's log as 1-byte chunks (views of it, as the HTTP parser's are of its read). */
async function byteChunks(): Promise<{ bytes: Buffer; chunks: Buffer[] }> {
  const bytes = await readFile(ASTROID.passA);
  return { bytes, chunks: Array.from({ length: bytes.length }, (_, i) => bytes.subarray(i, i + 1)) };
}

describe('a body of 1-byte chunks', () => {
  it('is posted to the worker in blocks, not a message a chunk, and joins to the same bytes', async () => {
    const { bytes, chunks } = await byteChunks();
    const porter = new BodyPorter();
    for (const c of chunks) porter.write(c);
    const body = porter.end();
    expect(body.length).toBe(bytes.length);
    const parts: Uint8Array[] = [];
    for (let m = receiveMessageOnPort(body.port); m !== undefined; m = receiveMessageOnPort(body.port)) parts.push(m.message as Uint8Array);
    body.port.close();
    expect(parts.length).toBe(Math.ceil(bytes.length / BODY_BLOCK_BYTES));
    expect(Buffer.concat(parts).equals(bytes)).toBe(true);
  });

  for (const port of [false, true]) {
    it(`is taken at most CHUNKS_PER_TURN chunks a turn (${port ? 'ported to a worker' : 'kept on the main thread'}), and whole`, async () => {
      const { bytes, chunks } = await byteChunks();
      const request = Object.assign(new Readable({ read: () => undefined }), { headers: { 'transfer-encoding': 'chunked' } });
      for (const c of chunks) request.push(c);
      request.push(null);
      let taken = 0;
      let done = false;
      const collected = collectBody(request as unknown as IncomingMessage, 64 * 1024 * 1024, undefined, port).finally(() => (done = true));
      request.on('data', () => taken++);
      const perTurn: number[] = [];
      for (let last = 0; !done; last = taken) {
        await nextTurn();
        perTurn.push(taken - last);
      }
      expect(taken).toBe(chunks.length);
      expect(Math.max(...perTurn)).toBeLessThanOrEqual(CHUNKS_PER_TURN);
      const body = await collected;
      const got = bodyBytesOf(body);
      expect(Buffer.from(got).equals(bytes)).toBe(true);
    });
  }
});
