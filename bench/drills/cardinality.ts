/**
 * Cardinality drill (issue 25's trial, repeated): in shadow mode, one tenant streams sessions under distinct
 * long agent and model names, each reporting an outcome, against a server in its own process. Then /metrics
 * is scraped (its size, series and time), the pairs held and state.json measured, and an operator pins a new
 * pair. Meanwhile another tenant's connection pings. Before the bounds: 1,200 sessions with 256-character
 * names gave a 270 MB /metrics of 453k series, a 64 s scrape stalling other clients 30-48 s, RSS 1.6-1.8 GB,
 * and `too many pairs` for the operator's pin.
 */
import { mkdtemp, rm, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { startTarget } from '../server-process.js';
import { pingSummary, startPinger } from './pinger.js';
import { DrillClient } from './ws-client.js';

export interface CardinalityOptions {
  /** Sessions, each under a distinct agent + model pair. */
  sessions: number;
  /** Characters of each agent and model name. */
  nameLength: number;
  task: string;
  /** Raw mini-swe-agent events each session streams (a few of a real run). */
  events: unknown[];
}

export interface CardinalityResult {
  sessions: number;
  streamSeconds: number;
  metricsBytes: number;
  metricsSeries: number;
  scrapeMs: number;
  longestLabel: number;
  pairsHeld: number;
  evicted: number;
  stateBytes: number;
  pinStatus: number;
  rssMB: number;
  heapMB: number;
  pings: Record<string, { max: number; p99: number; n: number }>;
  /** The server's own event-loop delay, max (ms), while streaming and during the scrape. */
  loopMaxMs: Record<string, number>;
}

const TOKENS = [
  { token: 'junk-token', tenant: 'junk' },
  { token: 'other-token', tenant: 'other-team' },
  { token: 'ops-token', tenant: 'ops', role: 'operator' as const },
];
const auth = (token: string): Record<string, string> => ({ authorization: `Bearer ${token}` });

export async function runCardinality(o: CardinalityOptions): Promise<CardinalityResult> {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'steplens-cardinality-'));
  const target = await startTarget('steplens', [], { tokens: TOKENS, shadow: true, dataDir, resumeWindowMs: 1000 });
  const pinger = await startPinger(target.url, auth('other-token'));
  const pings: CardinalityResult['pings'] = {};
  const loopMaxMs: Record<string, number> = {};
  try {
    pinger.window();
    await target.loopDelay();
    const began = performance.now();
    const c = await DrillClient.connect(target.url, auth('junk-token'));
    const name = (i: number, c0: string): string => `${i}-${c0.repeat(o.nameLength)}`.slice(0, o.nameLength);
    for (let i = 0; i < o.sessions; i++) {
      const id = `c-${i}`;
      c.send({ type: 'start', session: id, task: o.task, format: 'mini-swe-agent', agent: name(i, 'a'), model: name(i, 'm') });
      o.events.forEach((step, seq) => c.send({ type: 'step', session: id, seq, step }));
      c.send({ type: 'outcome', session: id, passed: i % 2 === 0 });
      c.send({ type: 'end', session: id });
      await c.nextOf('final', id, 60_000);
      c.frames.length = 0;
    }
    c.close();
    const streamSeconds = (performance.now() - began) / 1000;
    pings.stream = pingSummary(pinger.window());
    loopMaxMs.stream = Number((await target.loopDelay()).max.toFixed(1));

    const t0 = performance.now();
    const text = await (await fetch(`${target.http}/metrics`, { headers: auth('ops-token') })).text();
    const scrapeMs = performance.now() - t0;
    pings.scrape = pingSummary(pinger.window());
    loopMaxMs.scrape = Number((await target.loopDelay()).max.toFixed(1));
    const series = text.split('\n').filter((l) => l !== '' && !l.startsWith('#'));
    let longestLabel = 0;
    for (const l of series) for (const m of l.matchAll(/="([^"]*)"/g)) longestLabel = Math.max(longestLabel, m[1]!.length);
    const pin = await fetch(`${target.http}/v1/policies/pin`, {
      method: 'POST',
      headers: { ...auth('ops-token'), 'content-type': 'application/json' },
      body: JSON.stringify({ agent: 'operator-agent', model: 'operator-model', policy: { blindRetry: { warn: 2, stop: 4 } } }),
    });
    await pin.arrayBuffer();
    // The state is saved at most once a second.
    await new Promise((r) => setTimeout(r, 1500));
    const stateBytes = (await stat(path.join(dataDir, 'policies', 'state.json'))).size;
    const memory = await target.memory();
    return {
      sessions: o.sessions,
      streamSeconds: Number(streamSeconds.toFixed(1)),
      metricsBytes: Buffer.byteLength(text),
      metricsSeries: series.length,
      scrapeMs: Math.round(scrapeMs),
      longestLabel,
      pairsHeld: Number(/steplens_policy_pairs (\d+)/.exec(text)?.[1] ?? -1),
      evicted: Number(/steplens_policy_pairs_evicted_total (\d+)/.exec(text)?.[1] ?? -1),
      stateBytes,
      pinStatus: pin.status,
      rssMB: Number((memory.rss / 1e6).toFixed(1)),
      heapMB: Number((memory.heapUsed / 1e6).toFixed(1)),
      pings,
      loopMaxMs,
    };
  } finally {
    pinger.stop();
    await target.close();
    await rm(dataDir, { recursive: true, force: true });
  }
}
