// Bob's session for the unread-answers probe (T113): one stream starts session SESSION and sends N steps whose
// observations are B bytes, then ends it (kept within the resume window), so GET /v1/sessions/SESSION/steps answers
// a few MB. node seed.mjs WS_URL TOKEN SESSION N B; prints the answer's bytes.
import WebSocket from 'ws';
const { fetch } = globalThis;
const [url, token, session, n, b] = process.argv.slice(2);
const ws = new WebSocket(url, { headers: { authorization: `Bearer ${token}` } });
await new Promise((r, j) => (ws.once('open', r), ws.once('error', j)));
const finals = new Promise((r) => ws.on('message', (d) => JSON.parse(d.toString()).type === 'final' && r()));
ws.send(JSON.stringify({ type: 'start', session, task: 'unread' }));
for (let i = 0; i < Number(n); i++) {
  const observation = `${i} `.padEnd(Number(b), 'abcdefgh ');
  ws.send(
    JSON.stringify({ type: 'step', session, seq: i, step: { t: i, tool: 'bash', action: { kind: 'shell', command: `cat file${i % 97}.py`.padEnd(Number(process.env.CMD ?? 0), ' x') }, observation } }),
  );
}
ws.send(JSON.stringify({ type: 'end', session }));
await finals;
ws.close();
const http = url.replace('ws', 'http').replace('/v1/stream', '');
const res = await fetch(`${http}/v1/sessions/${session}/steps`, { headers: { authorization: `Bearer ${token}` } });
console.log(JSON.stringify({ status: res.status, bytes: (await res.arrayBuffer()).byteLength }));
