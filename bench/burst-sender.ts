/**
 * The burst of bench/stall.ts's `burst-20k`, sent from a worker thread: 20,000 tiny steps at once on one
 * connection (4 sessions x 5,000, the per-session limit), done when each session's last step is scored. In its own
 * thread so that reading the 20,000 answers does not delay the pinger's round trips in the bench's main thread.
 */
import { parentPort, workerData } from 'node:worker_threads';
import WebSocket from 'ws';

const { url, task, prefix } = workerData as { url: string; task: string; prefix: string };
const SESSIONS = 4;
const STEPS = 5000;

const frames: string[] = [];
for (let s = 0; s < SESSIONS; s++) frames.push(JSON.stringify({ type: 'start', session: `${prefix}${s}`, task }));
for (let i = 0; i < STEPS; i++) {
  for (let s = 0; s < SESSIONS; s++) {
    frames.push(JSON.stringify({ type: 'step', session: `${prefix}${s}`, seq: i, step: { tool: 'bash', action: { kind: 'shell', command: `ls ${i}` } } }));
  }
}
const ws = new WebSocket(url);
ws.once('open', () => {
  parentPort?.postMessage('sending');
  for (const f of frames) ws.send(f);
});
let left = SESSIONS;
const last = `"seq":${STEPS - 1},`;
ws.on('message', (raw: Buffer) => {
  const text = raw.toString();
  if (text.includes('"type":"error"')) {
    parentPort?.postMessage(`error ${text.slice(0, 200)}`);
    ws.close();
  } else if (text.includes('"type":"score"') && text.includes(last) && --left === 0) {
    parentPort?.postMessage('score');
    ws.close();
  }
});
ws.once('error', (error) => parentPort?.postMessage(`error ${error.message}`));
