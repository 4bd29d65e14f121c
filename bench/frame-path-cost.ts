/**
 * The server's own CPU a frame on the stream path when a read carries one or a few frames (frame29): what of the
 * non-amortised cost of the half-load row is steplens' code and what is the socket's. In process, CPU clock
 * (`process.cpuUsage`), rounds alternated:
 *  - frame batch: `FrameBatch.add` of k frames a turn from k connections (a no-op handler) and the turn's end, less
 *    the same loop of turns without the batch: its bookkeeping a frame at k = 1, 2, 16.
 *  - answer write: one ~300-byte text frame a turn to a loopback TCP reader in this process, written as
 *    `Connection` writes it (socket corked, `ws.send`, uncorked on the next tick) or as one pre-framed Buffer
 *    written to the socket (what bypassing ws' sender would save). Both sides of the socket are counted.
 *
 *   node dist/bench/frame-path-cost.js [--frames 20000] [--rounds 4] [--json FILE]
 */
import net from 'node:net';
import { WebSocketServer, type WebSocket } from 'ws';
import type { Connection } from '../src/server/connection.js';
import { FrameBatch } from '../src/server/frame-batch.js';
import { benchArgs, numberFlag } from './args.js';
import { machine, machineLine, writeResult } from './report.js';
import { commandLine, fmt, median, printTable } from './timing.js';

const { values: args } = benchArgs({ options: { frames: { type: 'string', default: '20000' }, rounds: { type: 'string', default: '4' }, json: { type: 'string' } } });
const frames = numberFlag(args, 'frames', 'positive integer');
const rounds = numberFlag(args, 'rounds', 'positive integer');

const cpu = (): number => {
  const u = process.cpuUsage();
  return u.user + u.system;
};
const turn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/** µs a frame of `k` frames a turn through a batch, less the turns alone. */
async function batchCost(k: number): Promise<number> {
  const conns = Array.from({ length: k }, (_, id) => ({ id, principal: { tenant: 'local' }, pauseReads: () => undefined, resumeReads: () => undefined }) as unknown as Connection);
  const batch = new FrameBatch(
    () => undefined,
    (error) => {
      throw error;
    },
  );
  const raw = Buffer.alloc(1600);
  const turns = Math.ceil(frames / k);
  let t = cpu();
  for (let i = 0; i < turns; i++) await turn();
  const bare = cpu() - t;
  t = cpu();
  for (let i = 0; i < turns; i++) {
    for (const conn of conns) batch.add(conn, raw, false);
    await turn();
  }
  return (cpu() - t - bare) / (turns * k);
}

/** A server-side WebSocket over loopback whose peer only reads (a raw socket after a hand-made upgrade). */
async function loopback(): Promise<{ ws: WebSocket; close: () => void }> {
  const wss = new WebSocketServer({ port: 0, host: '127.0.0.1' });
  await new Promise((resolve) => wss.once('listening', resolve));
  const { port } = wss.address() as net.AddressInfo;
  const accepted = new Promise<WebSocket>((resolve) => wss.once('connection', resolve));
  const peer = net.connect(port, '127.0.0.1');
  peer.on('data', () => undefined);
  peer.write('GET / HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n');
  const ws = await accepted;
  return { ws, close: () => (peer.destroy(), wss.close()) };
}

const ANSWER = Buffer.from(
  '{"type":"score","session":"bench-000000000000000000000000000001","seq":12,"t":12,"stage":"edit","score":{"total":0.4213,"struct":0.5,"cov":null,"coh":0.25,"temp":0.75},"reward":0.1234,"tier":"mid","reference":{"task":"pylint-dev__astroid-1196","version":3,"nodes":120,"runs":4}}',
);

/** `ANSWER` as one unmasked text frame (header and payload in one Buffer). */
function framed(payload: Buffer): Buffer {
  const head = payload.length < 126 ? 2 : 4;
  const b = Buffer.allocUnsafe(head + payload.length);
  b[0] = 0x81;
  if (head === 2) b[1] = payload.length;
  else {
    b[1] = 126;
    b.writeUInt16BE(payload.length, 2);
  }
  payload.copy(b, head);
  return b;
}

/** µs an answer, one a turn, written the way `how` names. */
async function writeCost(ws: WebSocket, how: 'ws.send' | 'one buffer'): Promise<number> {
  const raw = (ws as unknown as { _socket: net.Socket })._socket;
  let corked = false;
  const uncork = (): void => {
    corked = false;
    raw.uncork();
  };
  const t = cpu();
  for (let i = 0; i < frames; i++) {
    if (how === 'ws.send') {
      if (!corked) {
        corked = true;
        raw.cork();
        process.nextTick(uncork);
      }
      ws.send(ANSWER, { binary: false });
    } else raw.write(framed(ANSWER));
    await turn();
  }
  return (cpu() - t) / frames;
}

console.log(`command: ${commandLine(import.meta.url)}`);
console.log(machineLine());
const { ws, close } = await loopback();
const COLUMNS = ['batch_k1', 'batch_k2', 'batch_k16', 'write_ws_send', 'write_one_buffer'] as const;
const cells: number[][] = COLUMNS.map(() => []);
for (let r = 0; r < rounds; r++) {
  const row: number[] = [];
  for (const k of [1, 2, 16]) row.push(await batchCost(k));
  for (const how of ['ws.send', 'one buffer'] as const) row.push(await writeCost(ws, how));
  row.forEach((x, i) => cells[i]!.push(x));
}
close();
console.log(`CPU µs a frame, ${frames} frames a cell; rounds in order (the first warms the JIT), then the median of the rounds after it`);
const rows = Array.from({ length: rounds }, (_, r) => [String(r + 1), ...cells.map((c) => fmt(c[r]!, 2))]);
// The first round warms the JIT: the median is of the rounds after it (of the one round when there is only one).
const medians = cells.map((c) => median(c.length > 1 ? c.slice(1) : c));
rows.push(['median', ...medians.map((x) => fmt(x, 2))]);
printTable(['round', 'batch k=1', 'batch k=2', 'batch k=16', 'write: ws.send', 'write: one buffer'], rows);
writeResult(args.json, {
  bench: 'frame-path-cost',
  command: commandLine(import.meta.url),
  machine: machine(),
  targets: [],
  figures: Object.fromEntries(COLUMNS.map((name, i) => [`${name}_us`, medians[i]!])),
});
