/**
 * A large request body handed on as it arrives (T95). Collected on the main thread into one buffer, a 25 MB body
 * lived there for the seconds it took to arrive and to wait in the scoring queue, and V8 counted it against the
 * main isolate: each such body asked for a mark of the whole main heap, done in steps on the event loop every
 * tenant's sockets share (a rank flood on a 700 MB heap: delays of 1.5-1.9 s). Here each chunk is copied and posted
 * at once into a channel whose far end, not started, goes to the scoring worker with the job: the bytes wait in the
 * channel's queue, detached from the main isolate, and are joined in the worker that parses them.
 */
import { setImmediate as nextTurn } from 'node:timers/promises';
import { MessageChannel, receiveMessageOnPort, type MessagePort } from 'node:worker_threads';
import { JOB_SLICE_MS } from '../job-slices.js';
import { BodyBlocks } from './body-blocks.js';

/** A body's bytes queued on `port` (the far end of its channel), `length` bytes in all. */
export interface PortedBody {
  port: MessagePort;
  length: number;
}

/** Bodies of at least this many bytes (or of no declared length) are ported when a worker will parse them. */
export const PORTED_FROM_BYTES = 256 * 1024;

export function isPortedBody(value: unknown): value is PortedBody {
  return typeof value === 'object' && value !== null && !(value instanceof Uint8Array) && 'port' in value && typeof (value as PortedBody).length === 'number';
}

/** Posts a body's chunks into a channel as they arrive. */
export class BodyPorter {
  private readonly channel = new MessageChannel();
  private received = 0;
  private done = false;
  /** Small chunks gathered into blocks: a message a chunk cost ~450 bytes each for 1-byte chunks (body-blocks.ts, T110). */
  private readonly blocks = new BodyBlocks((bytes, owned) => this.post(bytes, owned));

  /** Queues `chunk`'s bytes (the chunk may be a view of the socket's buffer: only its bytes move, in blocks when small). */
  write(chunk: Uint8Array): void {
    this.received += chunk.length;
    this.blocks.write(chunk);
  }

  /** Posts `bytes`, transferred: a copy unless `owned` (a block of ours). */
  private post(bytes: Uint8Array, owned: boolean): void {
    const moved = owned && bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength ? bytes : new Uint8Array(bytes);
    this.channel.port1.postMessage(moved, [moved.buffer as ArrayBuffer]);
  }

  /** The body, its chunks queued on the far end. */
  end(): PortedBody {
    this.blocks.flush();
    this.done = true;
    this.channel.port1.close();
    return { port: this.channel.port2, length: this.received };
  }

  /** Drops what was queued (once; nothing once the body was handed on by {@link end}). */
  abort(): void {
    if (this.done) return;
    this.done = true;
    discardBody({ port: this.channel.port2, length: 0 });
    this.channel.port1.close();
  }
}

/** Frees a ported body never read (its job refused). */
export function discardBody(body: Uint8Array | PortedBody): void {
  if (body instanceof Uint8Array) return;
  while (receiveMessageOnPort(body.port) !== undefined);
  body.port.close();
}

/** The bytes of `body` in one buffer of the calling thread (a worker's; the main thread's only when jobs run inline). */
export function bodyBytesOf(body: Uint8Array | PortedBody): Uint8Array {
  if (body instanceof Uint8Array) return body;
  const joining = joiner(body);
  while (joining.next());
  return joining.done();
}

/**
 * As {@link bodyBytesOf}, the thread's event loop turning after each JOB_SLICE_MS of joining: a worker joined a 60.5 MB
 * body's ~1,000 chunks in one go, 0.6-1.25 s at load 7, every other tenant's job there waiting (T99).
 */
export async function bodyBytesInSlices(body: Uint8Array | PortedBody): Promise<Uint8Array> {
  if (body instanceof Uint8Array) return body;
  const joining = joiner(body);
  for (let since = performance.now(); joining.next();) {
    if (performance.now() - since < JOB_SLICE_MS) continue;
    await nextTurn();
    since = performance.now();
  }
  return joining.done();
}

/** Joins a ported body's chunks into one buffer: `next` takes one (false: none left), `done` checks they were all. */
function joiner(body: PortedBody): { next: () => boolean; done: () => Uint8Array } {
  const out = Buffer.allocUnsafeSlow(body.length);
  let at = 0;
  return {
    next: () => {
      const m = receiveMessageOnPort(body.port);
      if (m === undefined) return false;
      const part = m.message as Uint8Array;
      if (at + part.length > out.length) return false;
      out.set(part, at);
      at += part.length;
      return true;
    },
    done: () => {
      body.port.close();
      if (at !== body.length) throw new Error(`ported body: ${at} of its ${body.length} bytes arrived`);
      return out;
    },
  };
}
