/**
 * T61: the scoring routes read a body into memory before its job is queued, and nothing bounded the bodies still
 * arriving: one agent token's connections, each announcing `maxBodyBytes` and holding back the last byte, held
 * their bytes in the server until `requestTimeoutMs` (24 of 64 MiB: 1.6 GB). Now a tenant's bodies being received
 * hold at most twice `maxBodyBytes` (429 `quota_exceeded`), all of them four times it (503 `overloaded`), and a cut
 * request gives its bytes back. The held bodies are seen in `steplens_receiving_body_bytes` before the next is sent.
 */
import { connect, type Socket } from 'node:net';
import { readFile } from 'node:fs/promises';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { BodyReceipts } from '../../src/server/body-receipts.js';
import { ALICE_BOB_OPS, ASTROID, bearerJson, useApps, type Running } from './helpers.js';

const MAX_BODY = 512 * 1024;
const apps = useApps();
const sockets: Socket[] = [];
afterEach(() => {
  for (const s of sockets.splice(0)) s.destroy();
});

/** A `POST /v1/score` announcing `declared` bytes (no length: chunked) of which `send` are sent; the answer's first line. */
function held(srv: Running, token: string, declared: number | undefined, send: number): { answer: Promise<string> } {
  const socket = connect(Number(new URL(srv.url).port), '127.0.0.1');
  sockets.push(socket);
  const length = declared === undefined ? 'Transfer-Encoding: chunked' : `Content-Length: ${declared}`;
  socket.write(`POST /v1/score HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${token}\r\nContent-Type: application/json\r\n${length}\r\n\r\n`);
  const body = Buffer.alloc(send, 0x20);
  socket.write(declared === undefined ? Buffer.concat([Buffer.from(`${send.toString(16)}\r\n`), body, Buffer.from('\r\n')]) : body);
  let text = '';
  const answer = new Promise<string>((resolve) => {
    socket.on('data', (d: Buffer) => {
      text += d.toString();
      if (text.includes('\r\n\r\n')) resolve(text);
    });
    socket.on('close', () => resolve(text));
    socket.on('error', () => undefined);
  });
  return { answer };
}

async function receiving(srv: Running): Promise<number> {
  const text = await (await fetch(`${srv.url}/metrics`, { headers: { authorization: 'Bearer op' } })).text();
  return Number(/^steplens_receiving_body_bytes (\d+)/m.exec(text)?.[1] ?? NaN);
}

async function score(srv: Running, token: string): Promise<number> {
  const trajectory = await readFile(ASTROID.passA, 'utf8');
  const res = await fetch(`${srv.url}/v1/score`, { method: 'POST', headers: bearerJson(token), body: `{"task":"${ASTROID.task}","trajectory":${trajectory}}` });
  await res.arrayBuffer();
  return res.status;
}

describe('scoring bodies being received', () => {
  it("hold at most a tenant's share; another tenant is still answered, and a cut request gives its bytes back", async () => {
    const srv = await apps.start('share', { tokens: ALICE_BOB_OPS, limits: { maxBodyBytes: MAX_BODY } });
    held(srv, 'bob', MAX_BODY, 1024);
    held(srv, 'bob', MAX_BODY, 1024);
    await vi.waitFor(async () => expect(await receiving(srv)).toBe(2 * MAX_BODY));
    // Bob's third, announced or chunked: refused at once, while his two are still arriving.
    for (const declared of [MAX_BODY, undefined]) {
      const third = await held(srv, 'bob', declared, 1024).answer;
      expect(third).toMatch(/^HTTP\/1\.1 429/);
      expect(third).toContain('quota_exceeded');
    }
    expect(await score(srv, 'alice')).toBe(200);
    for (const s of sockets.splice(0)) s.destroy();
    await vi.waitFor(async () => expect(await receiving(srv)).toBe(0));
    expect(await score(srv, 'bob')).toBe(200);
  });

  it('hold at most four times maxBodyBytes in all (one tenant), a chunked body counted as it comes', async () => {
    const srv = await apps.start('total', { limits: { maxBodyBytes: MAX_BODY } });
    for (let i = 0; i < 3; i++) held(srv, 'x', MAX_BODY, 1024);
    held(srv, 'x', undefined, MAX_BODY - 1024);
    await vi.waitFor(async () => expect(await receiving(srv)).toBe(4 * MAX_BODY - 1024));
    const fifth = await held(srv, 'x', MAX_BODY, 1024).answer;
    expect(fifth).toMatch(/^HTTP\/1\.1 503/);
    expect(fifth).toContain('overloaded');
    for (const s of sockets.splice(0)) s.destroy();
    await vi.waitFor(async () => expect(await receiving(srv)).toBe(0));
    expect(await score(srv, 'x')).toBe(200);
  });
});

describe('BodyReceipts', () => {
  it("takes a tenant's first body whole, refuses past its share, keeps the reserve for others, and gives back once", () => {
    const r = new BodyReceipts({ total: 40, perTenant: 20, reservedForNewTenants: 10 });
    const a1 = r.hold('a');
    expect(a1.take(15)).toBeUndefined();
    const a2 = r.hold('a');
    expect(a2.take(10)?.code).toBe('quota_exceeded');
    expect(a2.take(5)).toBeUndefined();
    const b1 = r.hold('b');
    expect(b1.take(10)).toBeUndefined();
    // b holds some: the last 10 of the 40 are for a tenant with none.
    expect(r.hold('b').take(6)?.code).toBe('overloaded');
    expect(r.hold('c').take(10)).toBeUndefined();
    expect(r.bytes).toBe(40);
    a1.release();
    a1.release();
    expect(r.bytes).toBe(25);
    // A lone body grows past the share (its own limit bounds it), as the queue takes one job whatever its size.
    a2.release();
    const a3 = r.hold('a');
    expect(a3.take(1)).toBeUndefined();
    expect(a3.take(100)?.code).toBe('overloaded');
  });
});
