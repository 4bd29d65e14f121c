/**
 * A test reader of the live feed (`GET /v1/live`): Server-Sent Events over one
 * plain node:http request (its own socket, destroyed on close), events queued for `next`.
 */
import http from 'node:http';

export type LiveEvent = Record<string, unknown> & { type: string };

export class SseReader {
  readonly events: LiveEvent[] = [];
  /** The raw `data:` texts, in order (to compare with the frames a stream client got). */
  readonly texts: string[] = [];
  private waiters: Array<{ match: (e: LiveEvent) => boolean; resolve: (e: LiveEvent) => void }> = [];
  ended = false;

  private constructor(
    readonly status: number,
    readonly headers: http.IncomingHttpHeaders,
    private readonly req: http.ClientRequest,
  ) {}

  static open(url: string, headers: Record<string, string> = {}): Promise<SseReader> {
    return new Promise((resolve, reject) => {
      const req = http.get(url, { headers, agent: false }, (res) => {
        const reader = new SseReader(res.statusCode ?? 0, res.headers, req);
        reader.pump(res);
        resolve(reader);
      });
      req.on('error', reject);
    });
  }

  private pump(res: http.IncomingMessage): void {
    let buffer = '';
    res.setEncoding('utf8');
    res.on('data', (chunk: string) => {
      buffer += chunk;
      let cut: number;
      while ((cut = buffer.indexOf('\n\n')) >= 0) {
        const block = buffer.slice(0, cut);
        buffer = buffer.slice(cut + 2);
        const data = block
          .split('\n')
          .filter((l) => l.startsWith('data: '))
          .map((l) => l.slice(6))
          .join('\n');
        if (data === '') continue;
        this.texts.push(data);
        const event = JSON.parse(data) as LiveEvent;
        const i = this.waiters.findIndex((w) => w.match(event));
        if (i >= 0) this.waiters.splice(i, 1)[0]?.resolve(event);
        else this.events.push(event);
      }
    });
    res.on('close', () => {
      this.ended = true;
    });
  }

  next(match: (e: LiveEvent) => boolean = () => true, timeoutMs = 10_000): Promise<LiveEvent> {
    const i = this.events.findIndex(match);
    if (i >= 0) return Promise.resolve(this.events.splice(i, 1)[0]!);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('timed out waiting for a live event')), timeoutMs);
      this.waiters.push({
        match,
        resolve: (e) => {
          clearTimeout(timer);
          resolve(e);
        },
      });
    });
  }

  nextOf(type: string, session?: string): Promise<LiveEvent> {
    return this.next((e) => e.type === type && (session === undefined || e.session === session));
  }

  close(): void {
    this.req.destroy();
  }
}
