/**
 * Another client's view of the server during a drill or bench: one WebSocket connection that pings every few ms
 * and records each round trip (one ping in flight at a time, so a stalled server shows as one long round trip;
 * a ping still unanswered when a window is read counts with its age so far, and in the next window with the rest
 * of its wait only: a stall before a window began is not the next window's).
 */
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
  let windowFrom = 0;
  ws.on('message', () => {
    if (sentAt !== undefined) rtts.push(performance.now() - Math.max(sentAt, windowFrom));
    sentAt = undefined;
  });
  const timer = setInterval(() => {
    if (sentAt !== undefined || ws.readyState !== ws.OPEN) return;
    sentAt = performance.now();
    ws.send('{"type":"ping"}');
  }, everyMs);
  return {
    window: () => {
      const now = performance.now();
      const out = Float64Array.from(sentAt === undefined ? rtts : [...rtts, now - Math.max(sentAt, windowFrom)]);
      rtts = [];
      windowFrom = now;
      return out;
    },
    stop: () => {
      clearInterval(timer);
      ws.close();
    },
  };
}

/** {@link pinger} with plain arrays (the tenant drills' shape): headers first, every 10 ms by default. */
export async function startPinger(url: string, headers: Record<string, string> = {}, everyMs = 10): Promise<{ window(): number[]; stop(): void }> {
  const p = await pinger(url, everyMs, headers);
  return { window: () => Array.from(p.window()), stop: p.stop };
}

/** Max and p99 of round trips (ms), 0 for none. */
export function pingSummary(rtts: readonly number[]): { max: number; p99: number; n: number } {
  if (rtts.length === 0) return { max: 0, p99: 0, n: 0 };
  const s = [...rtts].sort((a, b) => a - b);
  return { max: s[s.length - 1]!, p99: s[Math.min(s.length - 1, Math.floor(0.99 * s.length))]!, n: s.length };
}
