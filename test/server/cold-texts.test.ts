/**
 * A session whose workspace deflates the texts of files unused for COLD_STEPS steps (on the step path, bench/README.md
 * "Memory per session, seventh pass") sends the frames, states, step lines, report, web view and final that a session
 * whose workspace never deflates sends, over real runs whose first files go cold.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { WebSocket } from 'ws';
import { Connection } from '../../src/server/connection.js';
import { createMetrics } from '../../src/server/metrics.js';
import { resolveOptions } from '../../src/server/options.js';
import type { Session } from '../../src/server/session.js';
import { SessionRegistry } from '../../src/server/session-registry.js';
import { sessionViewInSteps } from '../../src/server/session-view.js';
import { ReferenceStore } from '../../src/store/reference-store.js';
import { defaultAnalyzers } from '../../src/syntax/index.js';
import { ASTROID, readSteps } from './helpers.js';

/** An open socket that drops what is sent to it. */
const socket = (): WebSocket =>
  ({ readyState: 1, OPEN: 1, bufferedAmount: 0, send: () => undefined, close: () => undefined, terminate: () => undefined, once: () => undefined, on: () => undefined }) as unknown as WebSocket;

let dir: string;
let registry: SessionRegistry;
const connections = new Map<number, Connection>();
const conn = new Connection(1, socket(), 1 << 24);
const zlib = process.getBuiltinModule('node:zlib');

beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'steplens-cold-'));
  const store = await ReferenceStore.open({ dataDir: dir });
  registry = new SessionRegistry({ store, analyzers: defaultAnalyzers(), metrics: createMetrics(store), log: pino({ level: 'silent' }), options: resolveOptions({}), connections });
  connections.set(1, conn);
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function started(id: string): Promise<Session> {
  const s = await registry.start({ type: 'start', session: id, task: ASTROID.task }, conn);
  if (!s.ok) throw new Error(s.error.message);
  return s.value;
}

/** What a client and the web view get of a session, its id left out. */
function seen(s: Session, sent: unknown[]): string {
  return JSON.stringify({ sent, frames: s.frames, states: s.states(), texts: s.stepTexts(), report: s.report() }).replaceAll(`"${s.id}"`, '"ID"');
}

/** `f` run with zlib counted; `noGain`: every deflate gives more bytes than it was given, so no text is kept deflated. */
function withZlib<T>(noGain: boolean, count: { deflates: number; inflates: number }, f: () => T): T {
  const deflate = zlib.deflateRawSync;
  const inflate = zlib.inflateRawSync;
  zlib.deflateRawSync = (...args: Parameters<typeof deflate>) => {
    count.deflates++;
    const z = deflate(...args);
    return noGain ? Buffer.concat([z, Buffer.alloc(Buffer.byteLength(args[0]) + 1)]) : z;
  };
  zlib.inflateRawSync = (...args: Parameters<typeof inflate>) => (count.inflates++, inflate(...args));
  try {
    return f();
  } finally {
    zlib.deflateRawSync = deflate;
    zlib.inflateRawSync = inflate;
  }
}

describe('a session keeping the texts of files unused for a while deflated', () => {
  it('sends the frames, states, step lines, report, view and final of a session that never deflates', async () => {
    // Three runs of one task in one session: the files of the first ones go cold during the later ones.
    const steps = [...(await readSteps(ASTROID.passA)), ...(await readSteps(ASTROID.passB)), ...(await readSteps(ASTROID.fail))];
    const checked = (seq: number): boolean => seq % 10 === 9 || seq === steps.length - 1;
    // The plain session first, whole: the sessions share their long texts, so the cold one, stepping beside it, would
    // deflate texts the plain one then reads.
    const plain = await started('plain');
    const sent = { plain: [] as unknown[], cold: [] as unknown[] };
    const counts = { plain: { deflates: 0, inflates: 0 }, cold: { deflates: 0, inflates: 0 } };
    const expected: string[] = [];
    for (const [seq, step] of steps.entries()) {
      sent.plain.push(withZlib(true, counts.plain, () => plain.step(seq, structuredClone(step))));
      if (checked(seq)) expected.push(seen(plain, sent.plain));
    }
    const cold = await started('cold');
    for (const [seq, step] of steps.entries()) {
      sent.cold.push(withZlib(false, counts.cold, () => cold.step(seq, structuredClone(step))));
      if (checked(seq)) expect(seen(cold, sent.cold)).toBe(expected.shift());
    }
    // The cold session's texts were deflated on the step path and read back deflated by later steps (texts another
    // test's session deflated may be shared into the plain one: tests share a process, so its zlib calls are not checked).
    // Deflated here, or by another test's session: a text already deflated (shared) is not deflated again.
    // Run alone: 1 deflate (a text of 2,048+ characters unused for 16 steps) and 1 inflate (read again later).
    expect(counts.cold.inflates).toBeGreaterThan(0);
    const views = await Promise.all([sessionViewInSteps(plain), sessionViewInSteps(cold)]);
    expect(JSON.stringify(views[1]).replaceAll('"cold"', '"ID"')).toBe(JSON.stringify(views[0]).replaceAll('"plain"', '"ID"'));
    const finals = await Promise.all([registry.end(plain, 'end'), registry.end(cold, 'end')]);
    expect(JSON.stringify(finals[1]).replaceAll('"cold"', '"ID"')).toBe(JSON.stringify(finals[0]).replaceAll('"plain"', '"ID"'));
  });
});
