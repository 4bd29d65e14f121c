/**
 * Drill: one client grows a task's PTA with long references until a cap refuses one, while another client
 * pings and a third starts sessions on that task (issue 25: 5,000-step references of 1.6 MB each; every
 * addition cloned and rewrote the whole PTA on the main thread, a ping stalled up to 10 s and each session
 * start took 1.7-6.3 s). The references are real corpus steps: each one the corpus runs concatenated from a
 * different first run on (so each branches off at the root), cut to `length` steps. The pinging and
 * starting clients run in a worker thread (growth-observer.ts; compiled: needs `npm run build`).
 */
import type { Step } from '../../src/core/types.js';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';

export interface PtaGrowthOptions {
  /** A running server: `http://host:port` and its `/v1/stream` URL. */
  http: string;
  ws: string;
  task: string;
  /** Real runs' steps the references are cut from. */
  runs: ReadonlyArray<readonly Step[]>;
  /** Steps per reference. */
  length: number;
  /** References sent at most (the drill stops at the first refusal). */
  references: number;
  /** A session is started on the task this often while the PTA grows. */
  startEveryMs: number;
}

export interface PtaGrowthResult {
  /** References accepted (201), and their POST round trips (ms). */
  added: number;
  addMs: number[];
  /** Bytes of each reference's body. */
  referenceBytes: number;
  /** The refusal that ended it, if any. */
  refused?: { status: number; code: string; message: string };
  /** Another client's ping round trips during the growth (ms). */
  pings: Float64Array;
  /** Session starts (start -> started, ms) during the growth, and the reference each was scored against. */
  startMs: number[];
  startsAgainstPta: number;
  /** The task's PTA at the end. */
  pta: { version: number; references: number; nodes: number; bytes: number };
  problems: string[];
}

/** Reference `i`: the runs from run `i` on (wrapping), concatenated, cut to `length` steps, `t` renumbered. */
export function longReference(runs: ReadonlyArray<readonly Step[]>, i: number, length: number): Step[] {
  const out: Step[] = [];
  for (let k = 0; out.length < length; k++) {
    const run = runs[(i + k) % runs.length]!;
    for (const s of run) {
      if (out.length === length) break;
      out.push({ ...s, t: out.length });
    }
  }
  return out;
}

/** The worker of growth-observer.ts: the compiled one beside this module (under dist/), else dist's from the sources (the tests run these from TypeScript). */
function observerEntry(): URL {
  const here = fileURLToPath(new URL('.', import.meta.url));
  const js = path.join(here, 'growth-observer.js');
  return pathToFileURL(existsSync(js) ? js : path.resolve(here, '../../dist/bench/drills/growth-observer.js'));
}

export async function runPtaGrowth(o: PtaGrowthOptions): Promise<PtaGrowthResult> {
  const observer = new Worker(observerEntry(), { workerData: { ws: o.ws, task: o.task, startEveryMs: o.startEveryMs } });
  const messages: unknown[] = [];
  let wake: (() => void) | undefined;
  observer.on('message', (m) => {
    messages.push(m);
    wake?.();
  });
  const nextMessage = async (): Promise<unknown> => {
    while (messages.length === 0) await new Promise<void>((resolve) => (wake = resolve));
    return messages.shift();
  };
  observer.once('error', (e) => {
    messages.push({ error: String(e) });
    wake?.();
  });
  const ready = await nextMessage();
  if (ready !== 'ready') throw new Error(`growth observer: ${JSON.stringify(ready)}`);

  const addMs: number[] = [];
  let refused: PtaGrowthResult['refused'];
  let referenceBytes = 0;
  for (let i = 0; i < o.references && refused === undefined; i++) {
    const body = Buffer.from(JSON.stringify({ trajectory: longReference(o.runs, i, o.length) }));
    referenceBytes = body.length;
    const began = performance.now();
    const res = await fetch(`${o.http}/v1/tasks/${encodeURIComponent(o.task)}/references`, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
    const answer = (await res.json()) as { error?: { code: string; message: string } };
    addMs.push(performance.now() - began);
    if (res.status === 201) continue;
    refused = { status: res.status, code: answer.error?.code ?? '?', message: answer.error?.message ?? '' };
    addMs.pop();
  }
  observer.postMessage('stop');
  const seen = (await nextMessage()) as { pings: number[]; startMs: number[]; startsAgainstPta: number; problems: string[]; error?: string };
  await observer.terminate();
  if (seen.error !== undefined) throw new Error(`growth observer: ${seen.error}`);
  const res = await fetch(`${o.http}/v1/tasks/${encodeURIComponent(o.task)}/pta`);
  const text = await res.text();
  const pta = JSON.parse(text) as { version: number; references: unknown[]; nodes: unknown[] };
  return {
    added: addMs.length,
    addMs,
    referenceBytes,
    ...(refused !== undefined ? { refused } : {}),
    pings: Float64Array.from(seen.pings),
    startMs: seen.startMs,
    startsAgainstPta: seen.startsAgainstPta,
    pta: { version: pta.version, references: pta.references.length, nodes: pta.nodes.length - 1, bytes: Buffer.byteLength(text) },
    problems: seen.problems,
  };
}
