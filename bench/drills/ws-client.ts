/** A small WebSocket client for the drills and the tests: queues incoming frames, awaits the next matching one. */
import WebSocket from 'ws';
import { dataText } from '../../src/client/frames.js';

export type Frame = Record<string, unknown> & { type: string };

export class DrillClient {
  readonly frames: Frame[] = [];
  private waiters: Array<{ match: (f: Frame) => boolean; resolve: (f: Frame) => void; reject: (e: Error) => void }> = [];
  closed: { code: number; reason: string } | undefined;
  private closeWaiters: Array<(c: { code: number; reason: string }) => void> = [];

  private constructor(readonly ws: WebSocket) {
    ws.on('message', (data) => {
      const frame = JSON.parse(dataText(data)) as Frame;
      const i = this.waiters.findIndex((w) => w.match(frame));
      if (i >= 0) this.waiters.splice(i, 1)[0]?.resolve(frame);
      else this.frames.push(frame);
    });
    ws.on('close', (code, reason) => {
      this.closed = { code, reason: reason.toString() };
      for (const w of this.closeWaiters) w(this.closed);
      for (const w of this.waiters) w.reject(new Error(`socket closed (${code} ${reason.toString()})`));
      this.waiters = [];
    });
    ws.on('error', () => undefined);
  }

  static async connect(url: string, headers: Record<string, string> = {}): Promise<DrillClient> {
    const ws = new WebSocket(url, { headers, maxPayload: 64 * 1024 * 1024 });
    ws.on('error', () => undefined); // a refused upgrade may report more than once
    await new Promise<void>((resolve, reject) => {
      ws.once('open', () => resolve());
      ws.once('error', reject);
    });
    return new DrillClient(ws);
  }

  send(message: unknown, binary = false): void {
    if (this.ws.readyState !== this.ws.OPEN) return;
    this.ws.send(typeof message === 'string' || Buffer.isBuffer(message) ? message : JSON.stringify(message), { binary });
  }

  /** The next frame (queued or arriving) that matches. */
  next(match: (f: Frame) => boolean = () => true, timeoutMs = 10_000): Promise<Frame> {
    const i = this.frames.findIndex(match);
    if (i >= 0) return Promise.resolve(this.frames.splice(i, 1)[0]!);
    if (this.closed) return Promise.reject(new Error(`socket closed (${this.closed.code})`));
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('timed out waiting for a frame')), timeoutMs);
      this.waiters.push({
        match,
        resolve: (f) => {
          clearTimeout(timer);
          resolve(f);
        },
        reject: (e) => {
          clearTimeout(timer);
          reject(e);
        },
      });
    });
  }

  /** The next frame of `type` (of `session`, when given). */
  nextOf(type: string, session?: string, timeoutMs?: number): Promise<Frame> {
    return this.next((f) => f.type === type && (session === undefined || f.session === session), timeoutMs);
  }

  /** Everything sent before has been handled once the pong arrives. */
  async sync(timeoutMs?: number): Promise<void> {
    this.send({ type: 'ping' });
    await this.next((f) => f.type === 'pong', timeoutMs);
  }

  whenClosed(): Promise<{ code: number; reason: string }> {
    if (this.closed) return Promise.resolve(this.closed);
    return new Promise((resolve) => this.closeWaiters.push(resolve));
  }

  close(): void {
    this.ws.close();
  }
}
