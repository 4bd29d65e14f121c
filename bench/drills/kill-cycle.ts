/**
 * kill -9 drill: a server grows PTAs (POST references to a few tasks at once, and `learn` sessions) and is
 * killed with SIGKILL at a random moment, then started again on the same data folder, cycle after cycle.
 * Every restart must find only valid PTA files (no warning, nothing moved aside, no temporary file left),
 * and no reference whose addition was acknowledged may be missing.
 */
import { readdir } from 'node:fs/promises';
import type { Step } from '../../src/core/types.js';
import { spawnServer } from './spawn-server.js';
import { DrillClient } from './ws-client.js';

export interface KillOptions {
  dataDir: string;
  cycles: number;
  /** A passing trajectory document (POST references) and its steps (learn sessions). */
  doc: unknown;
  steps: readonly Step[];
  tasks: string[];
  /** Kill after a random delay in [minMs, maxMs]. */
  minMs: number;
  maxMs: number;
  /**
   * When that delay starts: at the server's start (default), or at the cycle's first acknowledged reference
   * (`'firstAck'`, at most FIRST_ACK_WAIT_MS later). A fresh process's first reference took 0.6 s alone at a load
   * of 8 on 2 cores, so three cycles of 0.3-0.9 s could end with nothing acknowledged and nothing checked.
   */
  from?: 'start' | 'firstAck';
}

/** How long a cycle waits for its first acknowledged reference before it kills anyway. */
const FIRST_ACK_WAIT_MS = 30_000;

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

export interface KillResult {
  cycles: number;
  /** References acknowledged (201 or `learned`) before the kills. */
  acknowledged: number;
  /** Acknowledged versions found missing after a restart. */
  lost: string[];
  /** Temporary files a kill left (removed at the next start). */
  tempFilesLeft: number;
  /** Warnings at restart (a broken or foreign file would show here). */
  warnings: string[];
  /** Files moved aside (there must be none). */
  movedAside: number;
}

async function grow(http: string, ws: string, o: KillOptions, acked: Map<string, number>, stop: { now: boolean }, onAck: () => void): Promise<void> {
  const post = async (task: string): Promise<void> => {
    while (!stop.now) {
      try {
        const res = await fetch(`${http}/v1/tasks/${encodeURIComponent(task)}/references`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ trajectory: o.doc }),
        });
        if (res.status === 201) {
          const { version } = (await res.json()) as { version: number };
          acked.set(task, Math.max(acked.get(task) ?? 0, version));
          onAck();
        }
      } catch {
        return; // killed
      }
    }
  };
  const learn = async (task: string): Promise<void> => {
    for (let i = 0; !stop.now; i++) {
      try {
        const c = await DrillClient.connect(ws);
        const id = `learn-${Date.now()}-${i}`;
        c.send({ type: 'start', session: id, task, learn: true });
        o.steps.forEach((step, seq) => c.send({ type: 'step', session: id, seq, step }));
        c.send({ type: 'outcome', session: id, passed: true });
        c.send({ type: 'end', session: id });
        const final = await c.next((f) => f.type === 'final' && f.session === id, 10_000);
        const learned = final.learned as { version: number } | undefined;
        if (learned) {
          acked.set(task, Math.max(acked.get(task) ?? 0, learned.version));
          onAck();
        }
        c.close();
      } catch {
        return; // killed
      }
    }
  };
  await Promise.all([...o.tasks.map(post), learn(o.tasks[0]!)]);
}

/** What the folder holds after a kill (checked by the store at this start): every acknowledged version must be there. */
async function checkAcknowledged(http: string, acked: Map<string, number>, when: string, lost: string[]): Promise<void> {
  const listed = (await (await fetch(`${http}/v1/tasks`)).json()) as { tasks: Array<{ task: string; version: number }> };
  for (const [task, version] of acked) {
    const found = listed.tasks.find((t) => t.task === task)?.version ?? 0;
    if (found < version) lost.push(`${when}: ${task} acknowledged v${version}, found v${found}`);
  }
}

export async function runKillCycles(o: KillOptions): Promise<KillResult> {
  const acked = new Map<string, number>();
  const result: KillResult = { cycles: 0, acknowledged: 0, lost: [], tempFilesLeft: 0, warnings: [], movedAside: 0 };
  for (let cycle = 0; cycle < o.cycles; cycle++) {
    const server = await spawnServer(['--data', o.dataDir, '--no-seed']);
    result.warnings.push(...server.warnings);
    await checkAcknowledged(server.http, acked, `cycle ${cycle}`, result.lost);
    const stop = { now: false };
    let firstAck: () => void = () => undefined;
    const acknowledged = new Promise<void>((resolve) => (firstAck = resolve));
    const growing = grow(server.http, server.ws, o, acked, stop, () => firstAck());
    if (o.from === 'firstAck') {
      let cap: NodeJS.Timeout | undefined;
      await Promise.race([acknowledged, new Promise<void>((resolve) => (cap = setTimeout(resolve, FIRST_ACK_WAIT_MS)))]);
      clearTimeout(cap);
    }
    await sleep(o.minMs + Math.random() * (o.maxMs - o.minMs));
    server.proc.kill('SIGKILL');
    stop.now = true;
    await server.exited;
    await growing;
    result.tempFilesLeft += (await readdir(o.dataDir)).filter((n) => n.endsWith('.tmp')).length;
    result.cycles++;
  }
  // A last start: the folder after the final kill.
  const last = await spawnServer(['--data', o.dataDir, '--no-seed']);
  result.warnings.push(...last.warnings);
  await checkAcknowledged(last.http, acked, 'after the last kill', result.lost);
  last.proc.kill('SIGTERM');
  await last.exited;
  result.acknowledged = [...acked.values()].reduce((a, b) => a + b, 0);
  result.movedAside = (await readdir(o.dataDir)).filter((n) => n.includes('.unreadable-')).length;
  return result;
}
