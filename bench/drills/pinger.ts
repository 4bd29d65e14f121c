/** Another client's view of the server's latency: one WebSocket pinging every few ms, one ping in flight at a time. */
import WebSocket from 'ws';

export interface Pinger {
  /** Round trips (ms) since the previous call; a ping still unanswered counts with its age so far. */
  window: () => Float64Array;
  stop: () => void;
}

/** Pings every `everyMs` on its own connection (a stalled server shows as one long round trip). */
export async function pinger(url: string, everyMs = 5, headers: Record<string, string> = {}): Promise<Pinger> {
  const ws = new WebSocket(url, { headers });
  await new Promise((resolve, reject) => ws.once('open', resolve).once('error', reject));
  let rtts: number[] = [];
  let sentAt: number | undefined;
  ws.on('message', () => {
    if (sentAt !== undefined) rtts.push(performance.now() - sentAt);
    sentAt = undefined;
  });
  const timer = setInterval(() => {
    if (sentAt !== undefined) return;
    sentAt = performance.now();
    ws.send('{"type":"ping"}');
  }, everyMs);
  return {
    window: () => {
      const out = Float64Array.from(sentAt === undefined ? rtts : [...rtts, performance.now() - sentAt]);
      rtts = [];
      return out;
    },
    stop: () => {
      clearInterval(timer);
      ws.close();
    },
  };
}
