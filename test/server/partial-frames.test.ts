/**
 * T62: ws keeps a message's fragments until it is whole, up to 8x `maxFrameBytes` per stream, and a client that
 * answers pings may leave one unfinished for ever: a tenant's streams held that much each (64 streams: +540 MiB).
 * Now the bytes a tenant's streams have begun and not finished are bounded (`partialFrameBytesPerTenant`): the
 * stream whose read would pass it is not read further and is closed 1008 `quota_exceeded`; another tenant's
 * stream is not touched, and a finished message gives its bytes back. A ping after the fragments tells when the
 * server has read them (its pong comes after them).
 */
import { afterEach, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { resolveOptions } from '../../src/server/options.js';
import { DEFAULT_PARTIAL_FRAME_BYTES_PER_TENANT } from '../../src/server/server-limits.js';
import { ALICE_BOB_OPS, bearer, useApp } from './helpers.js';

const SHARE = 1024 * 1024;
const server = useApp({ tokens: ALICE_BOB_OPS, limits: { partialFrameBytesPerTenant: SHARE } });
const sockets: WebSocket[] = [];
afterEach(() => {
  for (const ws of sockets.splice(0)) ws.terminate();
});

async function stream(token: string): Promise<WebSocket> {
  const ws = new WebSocket(server().wsUrl, { headers: bearer(token) });
  sockets.push(ws);
  await new Promise((resolve, reject) => ws.once('open', resolve).once('error', reject));
  return ws;
}

/** Sends `bytes` of a text message in 64 KiB fragments without its last one, then a ping: 'pong' once the server read them, or how the stream closed. */
function begin(ws: WebSocket, bytes: number): Promise<string> {
  const piece = Buffer.alloc(64 * 1024, 0x20);
  for (let sent = 0; sent < bytes; sent += piece.length) ws.send(piece, { fin: false, binary: false });
  ws.ping();
  return new Promise((resolve) => {
    ws.once('pong', () => resolve('pong'));
    ws.once('close', (code, reason) => resolve(`close ${code} ${reason.toString()}`));
  });
}

describe("a tenant's unfinished messages", () => {
  it('are bounded: the stream past the share is closed 1008, another tenant streams on, a finished message gives its bytes back', async () => {
    const first = await stream('bob');
    expect(await begin(first, (3 * SHARE) / 4)).toBe('pong');
    const second = await stream('bob');
    expect(await begin(second, (3 * SHARE) / 4)).toMatch(/^close 1008 quota_exceeded/);
    // Alice's stream is hers: the same bytes are taken.
    const alice = await stream('alice');
    expect(await begin(alice, (3 * SHARE) / 4)).toBe('pong');
    // Bob's first message ends (not JSON: an error frame), and its bytes come back.
    const answered = new Promise<string>((resolve) => first.once('message', (data: Buffer) => resolve(data.toString())));
    first.send(Buffer.from('x'), { fin: true, binary: false });
    expect(JSON.parse(await answered)).toMatchObject({ type: 'error', code: 'bad_message' });
    const third = await stream('bob');
    expect(await begin(third, (3 * SHARE) / 4)).toBe('pong');
  });

  it('are bounded by default (256 MiB), with one tenant and with authentication off too', () => {
    expect(resolveOptions({ tokens: ALICE_BOB_OPS }).limits.partialFrameBytesPerTenant).toBe(DEFAULT_PARTIAL_FRAME_BYTES_PER_TENANT);
    expect(DEFAULT_PARTIAL_FRAME_BYTES_PER_TENANT).toBe(256 * 1024 * 1024);
    // Before: 0 (no bound) with one tenant, so a server with authentication off let anyone hold 8 MiB a stream.
    expect(resolveOptions({ tokens: ['one'] }).limits.partialFrameBytesPerTenant).toBe(DEFAULT_PARTIAL_FRAME_BYTES_PER_TENANT);
    expect(resolveOptions({}).limits.partialFrameBytesPerTenant).toBe(DEFAULT_PARTIAL_FRAME_BYTES_PER_TENANT);
    expect(resolveOptions({ limits: { partialFrameBytesPerTenant: 0 } }).limits.partialFrameBytesPerTenant).toBe(0);
  });
});

describe('with authentication off', () => {
  const authOff = useApp({ limits: { partialFrameBytesPerTenant: SHARE } });

  it("every stream's unfinished messages count together: the stream past the bound is closed 1008", async () => {
    const connect = async (): Promise<WebSocket> => {
      const ws = new WebSocket(authOff().wsUrl);
      sockets.push(ws);
      await new Promise((resolve, reject) => ws.once('open', resolve).once('error', reject));
      return ws;
    };
    expect(await begin(await connect(), (3 * SHARE) / 4)).toBe('pong');
    expect(await begin(await connect(), (3 * SHARE) / 4)).toMatch(/^close 1008 quota_exceeded/);
  });
});
