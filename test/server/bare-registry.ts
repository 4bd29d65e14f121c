/**
 * A session registry without a server, for tests that drive sessions directly and compare what they send: one
 * connection whose socket drops what is sent to it, a fresh data folder, a silent log (idle-compact, cold-texts).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { pino } from 'pino';
import { afterAll, beforeAll } from 'vitest';
import { Connection } from '../../src/server/connection.js';
import { createMetrics } from '../../src/server/metrics.js';
import { resolveOptions } from '../../src/server/options.js';
import type { Session } from '../../src/server/session.js';
import { SessionRegistry } from '../../src/server/session-registry.js';
import { ReferenceStore } from '../../src/store/reference-store.js';
import { defaultAnalyzers } from '../../src/syntax/index.js';
import { ASTROID, recordingSocket } from './helpers.js';

export interface BareRegistry {
  /** The registry (set once the file's beforeAll has run). */
  readonly registry: SessionRegistry;
  /** A session of ASTROID's task started on the one connection. */
  started(id: string): Promise<Session>;
}

/** Registers the file's beforeAll / afterAll that open and remove the registry's data folder. */
export function useBareRegistry(prefix: string): BareRegistry {
  let dir = '';
  let registry: SessionRegistry | undefined;
  const connections = new Map<number, Connection>();
  const conn = new Connection(1, recordingSocket(), 1 << 24);
  beforeAll(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), prefix));
    const store = await ReferenceStore.open({ dataDir: dir });
    registry = new SessionRegistry({ store, analyzers: defaultAnalyzers(), metrics: createMetrics(store), log: pino({ level: 'silent' }), options: resolveOptions({}), connections });
    connections.set(1, conn);
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });
  const bare: BareRegistry = {
    get registry(): SessionRegistry {
      if (registry === undefined) throw new Error('useBareRegistry: the registry is opened in beforeAll');
      return registry;
    },
    async started(id) {
      const s = await bare.registry.start({ type: 'start', session: id, task: ASTROID.task }, conn);
      if (!s.ok) throw new Error(s.error.message);
      return s.value;
    },
  };
  return bare;
}

/** What a client and the web view get of a session, its id left out. */
export function seen(s: Session, sent: unknown[]): string {
  return JSON.stringify({ sent, frames: s.frames, states: s.states(), texts: s.stepTexts(), report: s.report() }).replaceAll(`"${s.id}"`, '"ID"');
}
