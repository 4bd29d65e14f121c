/**
 * Test fixture of the live feed over real sessions: a feed and a registry (a corpus run's steps again and again),
 * and viewers' HTTP responses that record what was written to them, in which turn of the event loop, and can stop
 * taking bytes (a client that does not read) until told to drain.
 */
import { EventEmitter } from 'node:events';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { pino } from 'pino';
import { DEFAULT_CONFIG } from '../../src/core/config.js';
import type { Step } from '../../src/core/types.js';
import { Connection } from '../../src/server/connection.js';
import { LiveFeed } from '../../src/server/live-feed.js';
import { createMetrics, type AppMetrics } from '../../src/server/metrics.js';
import { resolveOptions } from '../../src/server/options.js';
import { SessionRegistry } from '../../src/server/session-registry.js';
import { sessionView } from '../../src/server/session-view.js';
import type { Session } from '../../src/server/session.js';
import { StepViews } from '../../src/server/step-views.js';
import { ReferenceStore } from '../../src/store/reference-store.js';
import { defaultAnalyzers } from '../../src/syntax/index.js';
import { ASTROID, readSteps, recordingSocket } from './helpers.js';

export const nextTurn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/** `data: {"type":"view",...sessionView(s)}` and its blank line: the view built in one go. */
export const viewEvent = (s: Session): string => `data: ${JSON.stringify({ type: 'view', ...sessionView(s) })}\n\n`;

/** Counts turns of the event loop while on (a `setImmediate` that queues itself): the turn a write happened in. */
export class TurnCounter {
  turn = 0;
  private on = true;
  constructor() {
    const spin = (): void => {
      this.turn++;
      if (this.on) setImmediate(spin);
    };
    setImmediate(spin);
  }
  stop(): void {
    this.on = false;
  }
}

/**
 * A viewer's HTTP response: what was written to it, in order (with the turn of `turns`); `first` settles with its
 * first event once written whole (its bytes up to the blank line that ends it: the JSON holds no newline; keep-alive
 * comments before it left out), `pieces` with the writes it took. `stall()`: from then on it holds what it is given
 * (`write` returns false, `writableLength` grows) until `drain()`.
 */
export function viewerResponse(turns?: TurnCounter) {
  const written: Buffer[] = [];
  const at: number[] = [];
  let wrote: (b: Buffer) => void = () => undefined;
  const first = new Promise<Buffer>((resolve) => (wrote = resolve));
  let pieces: Buffer[] | undefined;
  let stalled = false;
  const res = Object.assign(new EventEmitter(), {
    writableLength: 0,
    destroyed: false,
    writableEnded: false,
    writeHead: () => res,
    write: (b: Buffer) => {
      written.push(b);
      at.push(turns?.turn ?? 0);
      if (pieces === undefined) {
        const all = Buffer.concat(written);
        let from = 0;
        while (all[from] === 0x3a && all.includes('\n\n', from)) from = all.indexOf('\n\n', from) + 2; // `:` comments
        const end = all[from] === 0x3a ? -1 : all.indexOf('\n\n', from);
        if (end >= 0) {
          // The writes from the one the event begins in.
          let start = 0;
          for (let i = 0, n = 0; i < written.length; n += written[i]!.length, i++) if (n <= from) start = i;
          pieces = written.slice(start);
          wrote(all.subarray(from, end + 2));
        }
      }
      if (stalled) res.writableLength += b.length;
      return !stalled;
    },
    end: () => {
      res.writableEnded = true;
    },
    destroy: () => {
      res.destroyed = true;
      res.emit('close');
      return res;
    },
  });
  /** The `data:` texts written, comments (keep-alives) left out. */
  const texts = () =>
    Buffer.concat(written)
      .toString('utf8')
      .split('\n\n')
      .filter((t) => t.startsWith('data: '))
      .map((t) => t.slice(6));
  const stall = (): void => {
    stalled = true;
  };
  const drain = (): void => {
    stalled = false;
    res.writableLength = 0;
    res.emit('drain');
  };
  const req = { socket: Object.assign(new EventEmitter(), { setNoDelay: () => undefined, destroyed: false }) };
  return { req, res, written, at, first, texts, pieces: () => pieces ?? [], stall, drain };
}

export type ViewerResponse = ReturnType<typeof viewerResponse>;

/** A feed and a registry telling it of every session (its own data dir); close it after each test. */
export class LiveFixture {
  private static steps: Step[] | undefined;
  private sessions = 0;

  private constructor(
    readonly feed: LiveFeed,
    readonly views: StepViews,
    readonly registry: SessionRegistry,
    readonly metrics: AppMetrics,
    private readonly dir: string,
    private readonly steps: Step[],
  ) {}

  static async open(opts: { maxViewers?: number; perTenantViews?: number; queueBytes?: number; heartbeatMs?: number; paced?: { pieceBytes: number; turnBytes: number } } = {}): Promise<LiveFixture> {
    const steps = (LiveFixture.steps ??= await readSteps(ASTROID.fail));
    const dir = await mkdtemp(path.join(os.tmpdir(), 'steplens-live-'));
    const metrics = createMetrics({ cacheStats: () => ({ hits: 0, misses: 0, entries: 0, bytes: 0 }) });
    const views = new StepViews(opts.perTenantViews);
    const log = pino({ level: 'silent' });
    const feed = new LiveFeed({
      maxViewers: opts.maxViewers ?? 8,
      queueBytes: opts.queueBytes ?? 1 << 20,
      config: DEFAULT_CONFIG,
      metrics,
      log,
      heartbeatMs: opts.heartbeatMs ?? 60_000,
      views,
      paced: opts.paced,
    });
    const store = await ReferenceStore.open({ dataDir: dir });
    const registry = new SessionRegistry({ store, analyzers: defaultAnalyzers(), metrics, log, options: resolveOptions({}), connections: new Map(), observer: feed });
    return new LiveFixture(feed, views, registry, metrics, dir, steps);
  }

  /** A live session of `n` steps: the corpus run's steps again and again, each told to the feed as the stream handler does. */
  async liveSession(id: string, n: number): Promise<{ s: Session; score: (k: number) => void }> {
    const started = await this.registry.start({ type: 'start', session: id, task: ASTROID.task }, new Connection(++this.sessions, recordingSocket(), 1 << 24));
    if (!started.ok) throw new Error(started.error.message);
    const s = started.value;
    const score = (k: number): void => {
      for (let i = 0; i < k; i++) {
        const seq = s.lastSeq + 1;
        const out = s.step(seq, this.steps[seq % this.steps.length]);
        if (out.kind !== 'accepted') throw new Error(`step ${seq}: ${out.kind}`);
        this.registry.scored(s, out.frames);
      }
    };
    score(n);
    return { s, score };
  }

  async close(): Promise<void> {
    this.feed.close();
    await rm(this.dir, { recursive: true, force: true });
  }
}
