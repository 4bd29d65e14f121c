/**
 * T95: a large scoring body was collected on the main thread into one buffer for as long as it arrived and waited
 * in the queue, and V8 counted it against the main isolate: each such body asked for a mark of the whole main heap
 * on the event loop (a rank flood on a 700 MB heap: delays of 1.5-1.9 s). With a worker to parse it, a body of
 * 256 KiB or more is now handed on chunk by chunk as it arrives. Checked by what the main isolate holds while the
 * body is still arriving (V8's external memory after a collection: a live 16 MiB buffer, or nothing), not by timing.
 */
import { PassThrough } from 'node:stream';
import type { IncomingMessage } from 'node:http';
import { runInNewContext } from 'node:vm';
import v8 from 'node:v8';
import { receiveMessageOnPort, type MessagePort } from 'node:worker_threads';
import { describe, expect, it } from 'vitest';
import { collectBody } from '../../src/server/raw-body.js';
import { SteplensError } from '../../src/errors.js';

v8.setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;
/** The main isolate's external memory once garbage is collected (array buffers are swept after the collection, off the thread: twice, a turn apart). */
const external = async (): Promise<number> => {
  gc();
  await new Promise((resolve) => setTimeout(resolve, 20));
  gc();
  return v8.getHeapStatistics().external_memory;
};

const MiB = 1024 * 1024;
const CHUNK = 64 * 1024;

/** A request of `chunks` chunks of 64 KiB (byte i of chunk k is (k + i) % 251), with a content-length unless `chunked`. */
function request(chunks: number, chunked = false): { payload: IncomingMessage; send: (from: number, to: number) => void; end: () => void } {
  const stream = new PassThrough();
  const payload = Object.assign(stream, { headers: chunked ? {} : { 'content-length': String(chunks * CHUNK) } }) as unknown as IncomingMessage;
  const chunk = Buffer.alloc(CHUNK);
  const send = (from: number, to: number): void => {
    for (let k = from; k < to; k++) {
      for (let i = 0; i < CHUNK; i++) chunk[i] = (k + i) % 251;
      stream.write(Buffer.from(chunk));
    }
  };
  return { payload, send, end: () => stream.end() };
}

/** The bytes of a body: a buffer as it is, a ported one read off its channel. */
function bytesOf(body: unknown): Uint8Array {
  if (body instanceof Uint8Array) return body;
  const { port, length } = body as { port: MessagePort; length: number };
  const out = new Uint8Array(length);
  let at = 0;
  for (let m = receiveMessageOnPort(port); m !== undefined; m = receiveMessageOnPort(port)) {
    out.set(m.message as Uint8Array, at);
    at += (m.message as Uint8Array).length;
  }
  port.close();
  expect(at).toBe(length);
  return out;
}

const settle = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

describe('a large body for a worker, handed on as it arrives (T95)', () => {
  for (const chunked of [false, true]) {
    it(`holds none of a 16 MiB body on the main thread while it arrives${chunked ? ' (no content-length)' : ''}, and hands on every byte`, async () => {
      const chunks = (16 * MiB) / CHUNK;
      const { payload, send, end } = request(chunks, chunked);
      const before = await external();
      const body = collectBody(payload, 64 * MiB, undefined, true);
      send(0, chunks - 1);
      await settle();
      const held = (await external()) - before;
      // Before: the declared 16 MiB at once (or the chunks kept to be joined): all of it, still arriving.
      expect(held).toBeLessThan(2 * MiB);
      send(chunks - 1, chunks);
      end();
      const got = bytesOf(await body);
      expect(got.length).toBe(16 * MiB);
      for (const k of [0, 1, 100, chunks - 1]) expect([got[k * CHUNK], got[k * CHUNK + 7]]).toEqual([k % 251, (k + 7) % 251]);
    });
  }

  it('keeps a small body (under 256 KiB) in one buffer, and any body when no worker reads it', async () => {
    const small = request(2);
    const a = collectBody(small.payload, 64 * MiB, undefined, true);
    small.send(0, 2);
    small.end();
    expect(Buffer.isBuffer(await a)).toBe(true);
    const inline = request(8);
    const b = collectBody(inline.payload, 64 * MiB, undefined, false);
    inline.send(0, 8);
    inline.end();
    expect(Buffer.isBuffer(await b)).toBe(true);
  });

  it('still refuses a body longer than its content-length, or past the limit without one', async () => {
    const long = request(8);
    const a = collectBody(long.payload, 64 * MiB, undefined, true);
    long.send(0, 8);
    long.payload.emit('data', Buffer.alloc(1));
    await expect(a).rejects.toThrow(SteplensError);
    await expect(a).rejects.toThrow(/longer than its content-length/);
    const over = request(8, true);
    const b = collectBody(over.payload, 4 * CHUNK, undefined, true);
    over.send(0, 8);
    await expect(b).rejects.toThrow(/body exceeds/);
  });
});
