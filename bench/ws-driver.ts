/**
 * A lean WebSocket load driver for `/v1/stream` (and the echo target, which
 * answers alike): C connections × M sessions, each streaming one real
 * trajectory's steps, restarting as a new session after its `final`.
 * Step frames are serialised once per step with a fixed-width session id that
 * is patched in place before each send (ws copies the frame while masking it);
 * score frames are recognised by their leading bytes without JSON.parse;
 * latencies go into a preallocated Float64Array. Two ways to send:
 * closed loop (`depth` steps in flight per session) or paced (`pace`: a fixed
 * total rate, open loop, sessions taken round-robin).
 */
import WebSocket from 'ws';
import { seededRandom, shuffleInPlace } from '../src/core/stats/rng.js';
import type { Step } from '../src/core/types.js';

const ID_LEN = 10;
const STEP_PREFIX = '{"type":"step","session":"';
const SCORE_PREFIX = Buffer.from('{"type":"score","session":"');
const SIGNAL_PREFIX = Buffer.from('{"type":"signal"');
const SEQ_KEY = Buffer.from('","seq":');
const SEND_OPTS = { binary: false, compress: false } as const;

/** The step frames of one trajectory, serialised once. */
export interface StepTemplates {
  frames: Buffer[];
  steps: number;
}

/** Serialises `{type:'step', session:<placeholder>, seq:k, step}` for every step. */
export function stepTemplates(steps: readonly Step[]): StepTemplates {
  const frames = steps.map((step, seq) => Buffer.from(`${STEP_PREFIX}${'0'.repeat(ID_LEN)}","seq":${seq},"step":${JSON.stringify(step)}}`));
  return { frames, steps: steps.length };
}

const b36 = (n: number, width: number): string => n.toString(36).padStart(width, '0').slice(-width);

function slotOf(buf: Buffer, at: number): number {
  let n = 0;
  for (let i = at; i < at + 4; i++) {
    const c = buf[i] ?? 48;
    n = n * 36 + (c <= 57 ? c - 48 : c - 87);
  }
  return n;
}

export interface DriverOptions {
  url: string;
  connections: number;
  sessionsPerConnection: number;
  task: string;
  templates: StepTemplates;
  /** Steps in flight per session in closed loop; 0 = paced (steps only go out through `pace`). */
  depth: number;
  /** Distinguishes the session ids of successive drivers against one server (0-1295). */
  run: number;
  /** Latency samples kept per recording window (default 4M). */
  capacity?: number;
}

/** What one recording window measured. */
export interface Window {
  scored: number;
  seconds: number;
  /** Step-to-score latencies in ms, in arrival order, and the index in the trajectory of each step. */
  latencies: Float64Array;
  /**
   * The same steps' latencies from when each was due (paced: its place in the schedule), not from when it went out:
   * a driver running late is counted, not hidden (coordinated omission). Closed loop: equal to `latencies`.
   */
  dueLatencies: Float64Array;
  latencySteps: Int32Array;
  /** When each score arrived (performance.now() of the driver, ms). */
  arrivals: Float64Array;
  errors: number;
  firstError: string | undefined;
  /** Sessions started (`start` sent) and ended (`final` received) within the window. */
  starts: number;
  finals: number;
  /** `start` → `started` and `end` → `final` latencies in ms, sessions opened or closed within the window. */
  startLatencies: Float64Array;
  endLatencies: Float64Array;
}

/**
 * What a paced window sent and how its answers split (cap28): `scored` (Window) counts every score that arrived in
 * the window, `scoredOwn` only those of steps sent in it; the rest answered steps the warm-up left in flight.
 */
export interface PacedCounts {
  /** Steps sent within the window, and steps due while no session could send. */
  sent: number;
  skipped: number;
  scoredOwn: number;
  /** Steps sent and not yet scored when the window began and when it ended. */
  inFlightAtStart: number;
  inFlightAtEnd: number;
}

export class LoadDriver {
  private readonly sockets: WebSocket[] = [];
  private readonly slots: number;
  private readonly steps: number;
  private readonly nextSeq: Int32Array;
  private readonly acked: Int32Array;
  /** 0 starting, 1 streaming, 2 ending. */
  private readonly phase: Uint8Array;
  private readonly gen: Int32Array;
  private readonly ids: Buffer[];
  private readonly sentAt: Float64Array;
  private readonly dueAt: Float64Array;
  private readonly lat: Float64Array;
  private readonly latDue: Float64Array;
  private readonly latStep: Int32Array;
  private readonly latAt: Float64Array;
  private count = 0;
  /** When each slot last sent `start` or `end`; what those waited, as `lat` does for steps. */
  private readonly controlAt: Float64Array;
  private readonly startLat: Float64Array;
  private readonly endLat: Float64Array;
  private startCount = 0;
  private endCount = 0;
  private scored = 0;
  private starts = 0;
  private finals = 0;
  /** Score frames received over the driver's life. */
  private scoredTotal = 0;
  /** Step frames sent over the driver's life; scores within the window of steps sent within it (a round's own). */
  private sentTotal = 0;
  private scoredOwn = 0;
  /** Steps sent and not yet scored when the window began (what an earlier phase left for it to answer). */
  private inFlightAtStart = 0;
  private recording = false;
  private began = 0;
  private started = 0;
  private errors = 0;
  private firstError: string | undefined;
  private onAllStarted: (() => void) | undefined;
  private stopped = false;

  private constructor(private readonly o: DriverOptions) {
    this.slots = o.connections * o.sessionsPerConnection;
    this.steps = o.templates.steps;
    this.nextSeq = new Int32Array(this.slots);
    this.acked = new Int32Array(this.slots);
    this.phase = new Uint8Array(this.slots);
    this.gen = new Int32Array(this.slots);
    this.ids = Array.from({ length: this.slots }, () => Buffer.alloc(ID_LEN));
    this.sentAt = new Float64Array(this.slots * this.steps);
    this.dueAt = new Float64Array(this.slots * this.steps);
    this.lat = new Float64Array(o.capacity ?? 4_000_000);
    this.latDue = new Float64Array(this.lat.length);
    this.latStep = new Int32Array(this.lat.length);
    this.latAt = new Float64Array(this.lat.length);
    this.controlAt = new Float64Array(this.slots);
    this.startLat = new Float64Array(100_000);
    this.endLat = new Float64Array(100_000);
  }

  /** Connects, starts every session and resolves once all are started. */
  static async open(o: DriverOptions): Promise<LoadDriver> {
    const d = new LoadDriver(o);
    for (let c = 0; c < o.connections; c++) {
      const ws = new WebSocket(o.url, { perMessageDeflate: false });
      await new Promise((resolve, reject) => ws.once('open', resolve).once('error', reject));
      ws.on('message', (data: Buffer) => d.onMessage(data));
      ws.on('error', (e) => d.fail(`socket error: ${e.message}`));
      d.sockets.push(ws);
    }
    const all = new Promise<void>((resolve) => {
      d.onAllStarted = resolve;
    });
    for (let g = 0; g < d.slots; g++) d.start(g);
    await all;
    return d;
  }

  private fail(message: string): void {
    this.errors++;
    this.firstError ??= message;
  }

  private start(g: number): void {
    const id = `${b36(this.o.run, 2)}${b36(this.gen[g] ?? 0, 4)}${b36(g, 4)}`;
    this.ids[g]!.write(id, 'latin1');
    this.nextSeq[g] = 0;
    this.acked[g] = 0;
    this.phase[g] = 0;
    if (this.recording) this.starts++;
    this.controlAt[g] = performance.now();
    this.sockets[Math.floor(g / this.o.sessionsPerConnection)]?.send(JSON.stringify({ type: 'start', session: id, task: this.o.task }));
  }

  /** Sends slot g's next step; `due`: when the schedule wanted it out (paced), else now. */
  private send(g: number, due?: number): void {
    const k = this.nextSeq[g]!;
    const frame = this.o.templates.frames[k]!;
    this.ids[g]!.copy(frame, STEP_PREFIX.length);
    const now = performance.now();
    this.sentAt[g * this.steps + k] = now;
    this.dueAt[g * this.steps + k] = due ?? now;
    this.nextSeq[g] = k + 1;
    this.sentTotal++;
    this.sockets[Math.floor(g / this.o.sessionsPerConnection)]?.send(frame, SEND_OPTS);
  }

  private fill(g: number): void {
    const depth = this.o.depth;
    while (!this.stopped && this.nextSeq[g]! < this.steps && this.nextSeq[g]! - this.acked[g]! < depth) this.send(g);
  }

  private onMessage(data: Buffer): void {
    const L = SCORE_PREFIX.length;
    if (data.length > L + ID_LEN + SEQ_KEY.length && data.compare(SCORE_PREFIX, 0, L, 0, L) === 0) {
      const g = slotOf(data, L + 6);
      let seq = 0;
      for (let i = L + ID_LEN + SEQ_KEY.length; i < data.length; i++) {
        const c = data[i]!;
        if (c < 48 || c > 57) break;
        seq = seq * 10 + (c - 48);
      }
      return this.onScore(g, seq);
    }
    if (data.compare(SIGNAL_PREFIX, 0, SIGNAL_PREFIX.length, 0, SIGNAL_PREFIX.length) === 0) return;
    const m = JSON.parse(data.toString()) as { type: string; session?: string; message?: string };
    const g = m.session === undefined ? -1 : parseInt(m.session.slice(-4), 36);
    if (m.type === 'started' && g >= 0) {
      if (this.recording && this.startCount < this.startLat.length) this.startLat[this.startCount++] = performance.now() - this.controlAt[g]!;
      this.phase[g] = 1;
      if (++this.started === this.slots) this.onAllStarted?.();
      this.fill(g);
    } else if (m.type === 'final' && g >= 0 && !this.stopped) {
      if (this.recording) {
        this.finals++;
        if (this.endCount < this.endLat.length) this.endLat[this.endCount++] = performance.now() - this.controlAt[g]!;
      }
      this.gen[g] = this.gen[g]! + 1;
      this.start(g);
    } else if (m.type === 'error') this.fail(data.toString().slice(0, 300));
  }

  private onScore(g: number, seq: number): void {
    const now = performance.now();
    this.scoredTotal++;
    if (this.recording) {
      this.scored++;
      if (this.sentAt[g * this.steps + seq]! >= this.began) this.scoredOwn++;
      if (this.count < this.lat.length) {
        this.latStep[this.count] = seq;
        this.latAt[this.count] = now;
        this.latDue[this.count] = now - this.dueAt[g * this.steps + seq]!;
        this.lat[this.count++] = now - this.sentAt[g * this.steps + seq]!;
      }
    }
    const acked = this.acked[g]! + 1;
    this.acked[g] = acked;
    if (acked === this.steps && this.phase[g] === 1) {
      this.phase[g] = 2;
      this.controlAt[g] = performance.now();
      if (!this.stopped) this.sockets[Math.floor(g / this.o.sessionsPerConnection)]?.send(`{"type":"end","session":"${this.ids[g]!.toString('latin1')}"}`);
    } else this.fill(g);
  }

  /** Starts a recording window (resets counters). */
  record(): void {
    this.count = 0;
    this.startCount = 0;
    this.endCount = 0;
    this.scored = 0;
    this.starts = 0;
    this.finals = 0;
    this.scoredOwn = 0;
    this.inFlightAtStart = this.sentTotal - this.scoredTotal;
    this.recording = true;
    this.began = performance.now();
  }

  /** Ends the recording window. */
  window(): Window {
    this.recording = false;
    return {
      scored: this.scored,
      seconds: (performance.now() - this.began) / 1000,
      latencies: this.lat.slice(0, this.count),
      dueLatencies: this.latDue.slice(0, this.count),
      latencySteps: this.latStep.slice(0, this.count),
      arrivals: this.latAt.slice(0, this.count),
      errors: this.errors,
      firstError: this.firstError,
      starts: this.starts,
      finals: this.finals,
      startLatencies: this.startLat.slice(0, this.startCount),
      endLatencies: this.endLat.slice(0, this.endCount),
    };
  }

  /** Closed loop for `ms`, recording from `warmupMs` on. */
  async closedLoop(warmupMs: number, ms: number): Promise<Window> {
    await sleep(warmupMs);
    this.record();
    await sleep(ms);
    return this.window();
  }

  /**
   * Spreads the sessions' phases over the trajectory: the session of rank r
   * sends its first `floor(r · steps / slots)` steps at once (not recorded) and
   * the call resolves when they are all scored. Without it, round-robin pacing
   * keeps every session at the same step, so all of them reach `end` (report,
   * `final`, new `start`) in the same instant: a burst no steady load has.
   * `spread` (the default) ranks slots in a fixed pseudo-random order, so
   * neighbours in the round-robin are far apart in the trajectory and ends come
   * at independent moments of the round, as agents' would. `by-slot` ranks a slot by its index, as
   * before: the ~slots/steps neighbours at the last step then end back to back,
   * each `end` and `start` landing just before the next neighbour's last step.
   */
  async stagger(order: 'spread' | 'by-slot' = 'spread'): Promise<void> {
    const ranks = order === 'spread' ? shuffledRanks(this.slots) : undefined;
    const phase = (g: number): number => Math.floor(((ranks?.[g] ?? g) * (this.steps - 1)) / this.slots);
    let due = 0;
    for (let g = 0; g < this.slots; g++) due += phase(g);
    const target = this.scoredTotal + due;
    for (let g = 0; g < this.slots; g++) {
      const k = phase(g);
      for (let i = 0; i < k; i++) this.send(g);
    }
    while (this.scoredTotal < target && this.errors === 0) await sleep(5);
  }

  /**
   * Open loop: sends `rate` steps/s in total for `warmupMs + ms` (every ~1 ms
   * the steps due so far), taking streaming sessions round-robin; records from
   * `warmupMs` on. `skipped` counts steps due while no session could send.
   * Step n of the schedule is due at `t0 + (n + 1) / rate`; `t0` (performance.now() time, default now) lets
   * several drivers start together with their schedules offset, so their sends interleave.
   */
  async pace(rate: number, warmupMs: number, ms: number, t0 = performance.now()): Promise<Window & PacedCounts> {
    if (t0 > performance.now()) await sleep(t0 - performance.now());
    let sent = 0;
    let skipped = 0;
    let next = 0;
    let recordedSent = 0;
    await new Promise<void>((resolve) => {
      const tick = (): void => {
        const now = performance.now();
        if (!this.recording && now - t0 >= warmupMs) {
          this.record();
          recordedSent = sent;
        }
        if (now - t0 >= warmupMs + ms) return resolve();
        const due = Math.floor(((now - t0) * rate) / 1000) - sent - skipped;
        for (let i = 0; i < due; i++) {
          let tries = 0;
          while (tries < this.slots && (this.phase[next] !== 1 || this.nextSeq[next]! >= this.steps)) {
            next = (next + 1) % this.slots;
            tries++;
          }
          if (tries === this.slots) {
            // No session can send, and none can until this tick returns (nothing runs within it): skip the rest
            // at once rather than scanning every slot again for each (~229k scans a capacity round, cap28).
            skipped += due - i;
            break;
          } else {
            this.send(next, t0 + ((sent + skipped + 1) * 1000) / rate);
            sent++;
            next = (next + 1) % this.slots;
          }
        }
        setTimeout(tick, 1);
      };
      tick();
    });
    const inFlightAtStart = this.inFlightAtStart;
    const scoredOwn = this.scoredOwn;
    return { ...this.window(), sent: sent - recordedSent, skipped, scoredOwn, inFlightAtStart, inFlightAtEnd: this.sentTotal - this.scoredTotal };
  }

  /** Stops sending and closes the sockets. */
  async close(): Promise<void> {
    this.stopped = true;
    await Promise.all(
      this.sockets.map(
        (ws) =>
          new Promise<void>((resolve) => {
            if (ws.readyState === WebSocket.CLOSED) return resolve();
            ws.once('close', () => resolve());
            ws.close();
          }),
      ),
    );
  }
}

/** A fixed pseudo-random order of n slots (a seeded shuffle): slot g gets rank out[g]. */
export function shuffledRanks(n: number, seed = 1): Int32Array {
  return Int32Array.from(
    shuffleInPlace(
      Array.from({ length: n }, (_, i) => i),
      seededRandom(seed),
    ),
  );
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
