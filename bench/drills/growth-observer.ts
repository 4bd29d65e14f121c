/**
 * The other clients of the PTA-growth drill, in a worker thread of their own: one pings every 5 ms, one
 * starts (and ends) a session on the task every `startEveryMs`. On its own event loop, so what it measures
 * is the server's latency, not the drill's own work (building and sending 13 MB bodies).
 * workerData: { ws, task, startEveryMs }; message 'stop' -> { pings, startMs, startsAgainstPta, problems }.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { DrillClient } from './ws-client.js';
import { pinger } from './pinger.js';

const { ws, task, startEveryMs } = workerData as { ws: string; task: string; startEveryMs: number };
const port = parentPort!; // a worker thread

const ping = await pinger(ws, 5);
const starter = await DrillClient.connect(ws);
const startMs: number[] = [];
const problems: string[] = [];
let startsAgainstPta = 0;
let running = true;
const starts = (async () => {
  for (let n = 0; running; n++) {
    const id = `start-${n}`;
    const began = performance.now();
    starter.send({ type: 'start', session: id, task });
    const answer = await starter.next((f) => f.session === id && (f.type === 'started' || f.type === 'error'), 60_000);
    startMs.push(performance.now() - began);
    if (answer.type === 'error') problems.push(`start ${id}: ${String(answer.code)} ${String(answer.message)}`);
    else if ((answer.reference as { kind?: string } | undefined)?.kind === 'pta') startsAgainstPta++;
    starter.send({ type: 'end', session: id });
    await starter.nextOf('final', id);
    await new Promise((resolve) => setTimeout(resolve, startEveryMs));
  }
})();
port.postMessage('ready');
port.on('message', (message) => {
  if (message !== 'stop') return;
  running = false;
  void starts.then(() => {
    const pings = [...ping.window()];
    ping.stop();
    starter.close();
    port.postMessage({ pings, startMs, startsAgainstPta, problems });
  });
});
