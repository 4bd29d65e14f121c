/**
 * The connection to Redis every Redis-backed part of a replica shares: one
 * command connection and, on demand, one subscriber connection. Reconnects
 * with exponential backoff (capped) forever; while disconnected, commands
 * fail at once (no offline queue) and in-flight ones are rejected when the
 * socket drops, so callers see `unavailable` errors, never hangs. Every
 * command is timed and counted for the metrics.
 */
import { Redis, type RedisOptions } from 'ioredis';
import { SteplensError } from '../../errors.js';
import { checkRedisUrl, redisEndpoint } from './redis-url.js';

/** Receives the timing and outcome of every command, and connection changes (metrics). */
export interface RedisObserver {
  command(op: string, seconds: number, ok: boolean): void;
  connection(event: 'ready' | 'lost'): void;
}

export interface RedisLinkOptions {
  /** `redis://[user:password@]host:port[/db]` or `rediss://...`. */
  url: string;
  /** Prefix of every key and channel (default `steplens:`), so one Redis can hold several deployments. */
  prefix?: string;
  /** A command with no answer after this long fails (default 2000 ms). */
  commandTimeoutMs?: number;
  /** Longest wait between two reconnect attempts (default 2000 ms; the first waits 50 ms, then doubling). */
  maxBackoffMs?: number;
  /** Called for connection problems worth a log line. */
  warn?: (message: string) => void;
  observer?: RedisObserver;
}

const TIMED_OUT = 'timed out';
/** ioredis' rejection of a command with no answer within `commandTimeout`. */
const COMMAND_TIMED_OUT = 'Command timed out';
/**
 * ioredis' rejections of a command in flight when the connection drops: with `maxRetriesPerRequest` 0 it
 * flushes its queue with a MaxRetriesPerRequestError before reconnecting ('Connection is closed.' when it gives up).
 */
const DROPPED_IN_FLIGHT = 'MaxRetriesPerRequestError';
const CONNECTION_CLOSED = 'Connection is closed.';

/** `promise`, or a rejection with {@link TIMED_OUT} after `ms`. */
function withDeadline<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(TIMED_OUT)), ms);
  });
  return Promise.race([promise, deadline]).finally(() => clearTimeout(timer));
}

/** Redis' answer when `maxmemory` is reached and nothing can be evicted (also inside a script's error). */
function isOutOfMemory(message: string): boolean {
  return /\bOOM\b/.test(message);
}

const firstLine = (message: string): string => message.split('\n')[0]!.slice(0, 200);

export class RedisLink {
  readonly prefix: string;
  readonly endpoint: string;
  readonly client: Redis;
  private sub: Redis | undefined;
  private readonly options: RedisLinkOptions;
  private readonly observer: RedisObserver | undefined;
  private warnedAt = 0;
  private closed = false;
  /** When Redis last refused a write for lack of memory, and what it said. */
  private refusedForMemory: { at: number; message: string } | undefined;

  constructor(options: RedisLinkOptions) {
    checkRedisUrl(options.url);
    this.options = options;
    this.prefix = options.prefix ?? 'steplens:';
    this.endpoint = redisEndpoint(options.url);
    this.observer = options.observer;
    this.client = this.connect('steplens');
    this.client.on('ready', () => this.observer?.connection('ready'));
    this.client.on('close', () => {
      if (!this.closed) this.observer?.connection('lost');
    });
  }

  private connect(name: string): Redis {
    const maxBackoff = this.options.maxBackoffMs ?? 2000;
    const settings: RedisOptions = {
      connectionName: name,
      enableOfflineQueue: false,
      maxRetriesPerRequest: 0,
      autoResendUnfulfilledCommands: false,
      // The reference store subscribes again itself on every 'ready' (and handles a refusal); ioredis' own
      // resubscription leaves its promise unhandled, and a connection lost again at that moment (Redis
      // flapping) rejected it: an unhandled rejection, which ends a Node process.
      autoResubscribe: false,
      // Each command is written at once: cheaper in CPU per command than ioredis' auto-pipelining (measured).
      enableAutoPipelining: false,
      commandTimeout: this.options.commandTimeoutMs ?? 2000,
      retryStrategy: (times) => Math.min(50 * 2 ** Math.min(times - 1, 16), maxBackoff),
    };
    const redis = new Redis(this.options.url, settings);
    redis.on('error', (error: Error) => this.warn(`redis ${this.endpoint}: ${error.message}`));
    return redis;
  }

  /** One warning per 5 s at most: a dead Redis must not flood the log. */
  private warn(message: string): void {
    const now = Date.now();
    if (this.closed || now - this.warnedAt < 5000) return;
    this.warnedAt = now;
    this.options.warn?.(message);
  }

  /** How long a command may go unanswered (ms). */
  get commandTimeoutMs(): number {
    return this.options.commandTimeoutMs ?? 2000;
  }

  /**
   * True when `error` (from {@link run}) leaves it unknown whether Redis executed the command: it was sent
   * but not answered (timed out: Redis may still run it; or the connection dropped meanwhile).
   */
  static unanswered(error: unknown): boolean {
    const cause = error instanceof SteplensError ? error.cause : error;
    if (!(cause instanceof Error)) return false;
    return cause.message === COMMAND_TIMED_OUT || cause.message === CONNECTION_CLOSED || cause.name === DROPPED_IN_FLIGHT;
  }

  /** True while the command connection is up. */
  available(): boolean {
    return this.client.status === 'ready';
  }

  /** Resolves once connected (or after `timeoutMs`, false). */
  async whenReady(timeoutMs: number): Promise<boolean> {
    if (this.available()) return true;
    return new Promise((resolve) => {
      const done = (ok: boolean): void => {
        clearTimeout(timer);
        this.client.off('ready', onReady);
        resolve(ok);
      };
      const onReady = (): void => done(true);
      const timer = setTimeout(() => done(false), timeoutMs);
      this.client.on('ready', onReady);
    });
  }

  /** The subscriber connection (made on first use; resubscribes by itself after a reconnect). */
  subscriber(): Redis {
    this.sub ??= this.connect('steplens-sub');
    return this.sub;
  }

  /**
   * Runs one command (or script) under `op` for the metrics. A failure becomes
   * `SteplensError('unavailable')` naming the endpoint and the cause: Redis
   * unreachable (or not answering in time), out of memory (`maxmemory` with
   * `noeviction`: it refuses writes), or an error Redis answered.
   */
  async run<T>(op: string, command: (redis: Redis) => Promise<T>): Promise<T> {
    const began = performance.now();
    try {
      if (!this.available()) throw new Error(`not connected (${this.client.status})`);
      const result = await command(this.client);
      this.observer?.command(op, (performance.now() - began) / 1000, true);
      return result;
    } catch (error) {
      this.observer?.command(op, (performance.now() - began) / 1000, false);
      if (error instanceof SteplensError) throw error;
      throw new SteplensError('unavailable', this.describe(op, error as Error), { cause: error });
    }
  }

  /** Why `op` failed, in words: Redis out of memory, an error it answered, or unreachable. */
  private describe(op: string, error: Error): string {
    const message = error.message;
    if (error.name === 'ReplyError') {
      if (isOutOfMemory(message)) {
        this.refusedForMemory = { at: Date.now(), message };
        return `Redis at ${this.endpoint} is out of memory (maxmemory reached and it evicts nothing): ${op} refused (${firstLine(message)})`;
      }
      return `Redis at ${this.endpoint} refused ${op}: ${firstLine(message)}`;
    }
    if (message === COMMAND_TIMED_OUT) return `Redis at ${this.endpoint} did not answer ${op} within ${this.options.commandTimeoutMs ?? 2000} ms (paused or overloaded?)`;
    return `Redis at ${this.endpoint} is unreachable (${op}: ${message})`;
  }

  /**
   * Readiness: undefined when Redis answers within `deadlineMs` and takes writes, else why not: unreachable,
   * no answer in time (a paused or overloaded Redis keeps its TCP connection up), or out of memory
   * (`used_memory` at `maxmemory` under `noeviction`, or a write refused for memory in the last 5 s).
   */
  async health(deadlineMs: number): Promise<string | undefined> {
    if (!this.available()) return `Redis at ${this.endpoint} is unreachable (${this.client.status})`;
    let info: string;
    try {
      info = await withDeadline(
        this.client.ping().then(() => this.client.info('memory')),
        deadlineMs,
      );
    } catch (error) {
      const e = error as Error;
      const limit = e.message === TIMED_OUT ? deadlineMs : e.message === COMMAND_TIMED_OUT ? Math.min(deadlineMs, this.options.commandTimeoutMs ?? 2000) : undefined;
      if (limit !== undefined) return `Redis at ${this.endpoint} did not answer PING within ${limit} ms`;
      return this.describe('ping', e);
    }
    const field = (name: string): string | undefined => new RegExp(`^${name}:(.*)$`, 'm').exec(info)?.[1]?.trim();
    const used = Number(field('used_memory'));
    const max = Number(field('maxmemory'));
    if (max > 0 && used >= max && field('maxmemory_policy') === 'noeviction') {
      return `Redis at ${this.endpoint} is out of memory: used_memory ${used} of maxmemory ${max} bytes (noeviction): writes are refused`;
    }
    const refused = this.refusedForMemory;
    if (refused !== undefined && Date.now() - refused.at < 5000)
      return `Redis at ${this.endpoint} is out of memory: a write was refused ${Date.now() - refused.at} ms ago (${firstLine(refused.message)})`;
    return undefined;
  }

  /** Closes both connections (pending commands are answered first when Redis is up). */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await Promise.all(
      [this.client, this.sub].map(async (r) => {
        if (r === undefined) return;
        if (r.status === 'ready') await r.quit().catch(() => r.disconnect());
        else r.disconnect();
      }),
    );
  }
}
