/**
 * Shutdown-under-load drill: the server as users run it streams many sessions (half of them learning) and
 * scores HTTP requests when it gets SIGTERM. Every session must get its `final` (reason `shutdown`) covering
 * exactly the steps it was sent scores for, and none may be learned (a run the shutdown cut off is no
 * reference); every HTTP request an answer (200, or 503 in the catalogue shape); the process must exit 0;
 * the data folder must open again without a warning.
 */
import type { Step } from '../../src/core/types.js';
import { ReferenceStore } from '../../src/store/reference-store.js';
import { spawnServer } from './spawn-server.js';
import { DrillClient } from './ws-client.js';

export interface ShutdownOptions {
  dataDir: string;
  task: string;
  steps: readonly Step[];
  /** A trajectory document for the HTTP requests. */
  doc: unknown;
  sessions: number;
  httpRequests: number;
  /** Streaming time before SIGTERM. */
  loadMs: number;
}

export interface ShutdownResult {
  sessions: number;
  finals: number;
  /** Finals whose `steps` equal the score frames their session received. */
  finalsMatching: number;
  /** Finals that say a reference was learned (or refused): must be 0, the shutdown cut every run off. */
  learned: number;
  http: Record<string, number>;
  exitCode: number | null;
  /** SIGTERM to exit, ms. */
  exitMs: number;
  reopenWarnings: string[];
  problems: string[];
}

export async function runShutdownUnderLoad(o: ShutdownOptions): Promise<ShutdownResult> {
  const server = await spawnServer(['--data', o.dataDir, '--no-seed']);
  const result: ShutdownResult = { sessions: o.sessions, finals: 0, finalsMatching: 0, learned: 0, http: {}, exitCode: null, exitMs: 0, reopenWarnings: [], problems: [] };
  let stop = false;
  // Every session is open before the load starts (a connection still opening at SIGTERM would be refused, rightly).
  const opened = await Promise.all(
    Array.from({ length: o.sessions }, async (_, i) => {
      const c = await DrillClient.connect(server.ws);
      const id = `load-${i}`;
      const learn = i % 2 === 0;
      c.send({ type: 'start', session: id, task: o.task, learn });
      if (learn) c.send({ type: 'outcome', session: id, passed: true });
      await c.next((f) => f.type === 'started');
      return { c, id };
    }),
  );
  const streams = opened.map(async ({ c, id }, i) => {
    for (let seq = 0; !stop && !c.closed; seq++) {
      c.send({ type: 'step', session: id, seq, step: o.steps[seq % o.steps.length] });
      await new Promise((resolve) => setTimeout(resolve, 5 + (i % 7)));
    }
    const final = await c.next((f) => f.type === 'final', 30_000).catch(() => undefined);
    if (!final) return void result.problems.push(`${id}: no final`);
    result.finals++;
    if (final.reason !== 'shutdown') result.problems.push(`${id}: final.reason ${String(final.reason)}`);
    const scored = c.frames.filter((f) => f.type === 'score').length;
    if (scored === final.steps) result.finalsMatching++;
    else result.problems.push(`${id}: ${scored} scores, final.steps ${String(final.steps)}`);
    if (final.learned) {
      result.learned++;
      result.problems.push(`${id}: learned at shutdown (${JSON.stringify(final.learned)})`);
    }
  });
  const body = JSON.stringify({ task: o.task, trajectory: o.doc });
  const requests = Array.from({ length: o.httpRequests }, async (_, i) => {
    await new Promise((resolve) => setTimeout(resolve, (i * o.loadMs) / o.httpRequests));
    try {
      const res = await fetch(`${server.http}/v1/score`, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
      const text = await res.text();
      result.http[String(res.status)] = (result.http[String(res.status)] ?? 0) + 1;
      if (res.status !== 200 && !(res.status === 503 && text.includes('"code":"overloaded"'))) result.problems.push(`HTTP ${res.status}: ${text.slice(0, 200)}`);
    } catch (error) {
      const key = (error as { cause?: { code?: string } }).cause?.code ?? 'failed';
      result.http[key] = (result.http[key] ?? 0) + 1;
    }
  });
  await new Promise((resolve) => setTimeout(resolve, o.loadMs));
  const began = performance.now();
  server.proc.kill('SIGTERM');
  stop = true;
  result.exitCode = await server.exited;
  result.exitMs = performance.now() - began;
  await Promise.all([...streams, ...requests]);
  await ReferenceStore.open({ dataDir: o.dataDir, warn: (m) => result.reopenWarnings.push(m) });
  return result;
}
