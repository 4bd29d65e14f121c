/**
 * Warnings a client causes at the pace it connects (T45): a connection refused over the connection caps (no token
 * needed) is logged at most once an interval with the refusals left out counted; a stream broken at the WebSocket
 * level (a reserved opcode) is logged once, naming its tenant, without a stack, within the tenant's log lines.
 */
import net from 'node:net';
import WebSocket from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PacedLine } from '../../src/server/paced-line.js';
import { captured } from './captured-log.js';
import { closeRunning, removeDir, startApp, tempDir, type Running } from './helpers.js';

const LINES = 10;
let dir: string;
const running: Running[] = [];
const held: net.Socket[] = [];

beforeAll(async () => {
  dir = await tempDir();
});
afterAll(async () => {
  await closeRunning(running, held);
  await removeDir(dir);
});

/** A TCP connection to `url`'s server; resolves once the server closed it. */
function connectUntilClosed(url: string): Promise<void> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    const s = net.connect({ host: hostname, port: Number(port) });
    s.on('error', () => undefined);
    s.resume();
    s.once('close', () => resolve());
  });
}

/** Opens a stream with `token`, writes a frame with a reserved opcode (3) under ws, and resolves with the close code. */
function brokenStream(wsUrl: string, token: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(wsUrl, { headers: { authorization: `Bearer ${token}` } });
    ws.once('error', () => undefined);
    ws.once('close', (code) => resolve(code));
    ws.once('unexpected-response', () => reject(new Error('upgrade refused')));
    ws.once('open', () => {
      const raw = (ws as unknown as { _socket: net.Socket })._socket;
      raw.write(Buffer.from([0x83, 0x80, 1, 2, 3, 4]));
    });
  });
}

const flush = () => new Promise((resolve) => setTimeout(resolve, 50));

describe('warnings a client causes at its pace', () => {
  it('logs connections refused over the caps once an interval, not once each', async () => {
    const { log, lines } = captured();
    const r = await startApp({ dataDir: `${dir}/caps`, logger: log, limits: { connectionsPerAddress: 2 } });
    running.push(r);
    const { hostname, port } = new URL(r.url);
    for (let i = 0; i < 2; i++) {
      const s = net.connect({ host: hostname, port: Number(port) });
      s.on('error', () => undefined);
      held.push(s);
      await new Promise((resolve) => s.once('connect', resolve));
    }
    for (let i = 0; i < 40; i++) await connectUntilClosed(r.url);
    await flush();
    const refused = lines.filter((l) => l.msg === 'connection refused: over the connection limit');
    // One line for the 40 (two if the interval turned while they came), each refusal still counted in the metrics.
    expect(refused.length).toBeGreaterThanOrEqual(1);
    expect(refused.length).toBeLessThanOrEqual(2);
    expect(refused[0]).toMatchObject({ why: 'address', level: 40 });
    // The address's held connections go, so the metrics can be read from it.
    for (const s of held.splice(0)) s.destroy();
    await flush();
    const metrics = await (await fetch(`${r.url}/metrics`)).text();
    expect(metrics).toMatch(/steplens_refusals_total\{code="overloaded"\} 40\b/);
  });

  it("logs a stream broken at the WebSocket level once, naming its tenant, within the tenant's lines", async () => {
    const { log, lines } = captured();
    const r = await startApp({
      dataDir: `${dir}/protocol`,
      logger: log,
      limits: { logLinesPerTenant: LINES },
      tokens: [
        { token: 'noisy', tenant: 'noisy' },
        { token: 'quiet', tenant: 'quiet' },
      ],
    });
    running.push(r);
    for (let i = 0; i < 30; i++) expect(await brokenStream(r.wsUrl, 'noisy')).toBe(1002);
    expect(await brokenStream(r.wsUrl, 'quiet')).toBe(1002);
    await flush();
    const protocol = lines.filter((l) => typeof l.msg === 'string' && l.msg.startsWith('websocket protocol error'));
    // Once per broken stream (was twice, each with the error's stack), with its tenant.
    expect(protocol.every((l) => l.err === undefined && typeof l.reason === 'string' && l.code === 'WS_ERR_INVALID_OPCODE')).toBe(true);
    expect(protocol.filter((l) => l.tenant === 'quiet')).toHaveLength(1);
    // The noisy tenant's lines (its streams opened and closed, its protocol errors) within its share, one warning past it.
    expect(lines.filter((l) => l.tenant === 'noisy' && l.perMinute === undefined).length).toBeLessThanOrEqual(LINES);
    expect(lines.filter((l) => l.tenant === 'noisy' && l.perMinute === LINES)).toHaveLength(1);
  });

  it('PacedLine writes the first, then one an interval, counting those left out', () => {
    const line = new PacedLine(1000);
    expect(line.take(0)).toEqual({ write: true, left: 0 });
    for (let t = 1; t < 6; t++) expect(line.take(t * 100).write).toBe(false);
    expect(line.take(999)).toEqual({ write: false, left: 6 });
    expect(line.take(1000)).toEqual({ write: true, left: 6 });
    expect(line.take(2500)).toEqual({ write: true, left: 0 });
  });
});
