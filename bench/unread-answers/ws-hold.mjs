// Stream clients that never read (T114): K streams of TOKEN each start a session, stop reading their socket, send N
// steps (their score frames queue unread), sending a pong of their own every 500 ms from the start, for S seconds; the server's
// `steplens_active_connections` (read with OPS_TOKEN) is printed every 2 s and at the end, with how many streams
// the client saw closed. node ws-hold.mjs WS_URL TOKEN OPS_TOKEN K N S
import { clearInterval, setInterval } from 'node:timers';
import { setTimeout } from 'node:timers/promises';
import WebSocket from 'ws';
const { fetch } = globalThis;
const [url, token, ops, k, n, s] = process.argv.slice(2);
const metricsUrl = url.replace('ws', 'http').replace('/v1/stream', '/metrics');
const active = async () => {
  const text = await (await fetch(metricsUrl, { headers: { authorization: `Bearer ${ops}` } })).text();
  return Number(/^steplens_active_connections (\d+)/m.exec(text)?.[1]);
};
const streams = await Promise.all(
  Array.from({ length: Number(k) }, async (_, i) => {
    const ws = new WebSocket(url, { headers: { authorization: `Bearer ${token}` } });
    await new Promise((r, j) => (ws.once('open', r), ws.once('error', j)));
    ws.on('error', () => undefined);
    // Its own pongs from the start, every 500 ms (the probe's server pings every 2 s).
    const pongs = setInterval(() => (ws.readyState === WebSocket.OPEN ? ws.pong() : clearInterval(pongs)), 500);
    const session = `unread-${process.pid}-${i}`;
    const started = new Promise((r) => (ws.once('message', r), ws.once('close', r)));
    ws.send(JSON.stringify({ type: 'start', session, task: 'unread' }));
    await started;
    ws._socket?.pause();
    for (let q = 0; q < Number(n); q++) {
      const observation = `${q} `.padEnd(300, 'abcdefgh ');
      ws.send(JSON.stringify({ type: 'step', session, seq: q, step: { t: q, tool: 'bash', action: { kind: 'shell', command: `cat f${q % 97}.py` }, observation } }));
    }
    return ws;
  }),
);
const seen = [];
const end = Date.now() + Number(s) * 1000;
for (let t = 0; Date.now() < end; t++) {
  if (t % 2 === 0) seen.push(await active());
  await setTimeout(1000);
}
console.log(JSON.stringify({ activeEvery2s: seen, activeAtEnd: await active(), closedSeen: streams.filter((ws) => ws.readyState !== WebSocket.OPEN).length }));
for (const ws of streams) ws.terminate();
