/**
 * The client's public types: frames as the protocol's zod schemas infer them, and call options. Additions are part
 * of the protocol: an enum field (a signal's `kind`, a `tier`, an error's `code`...) may hold a value a newer server
 * added after these types were written.
 */
import type WebSocket from 'ws';
import type { StartMessage } from '../protocol/client-messages.js';
import type { FinalMessage, ScoreMessage, SignalMessage, StartedMessage } from '../protocol/server-messages.js';

/** A `score` frame: one scored step (`seq` of the message that completed it, `t` its step index). */
export type ScoreFrame = ScoreMessage;
/** A `signal` frame: an early-stop signal that fired at step `t`. */
export type SignalFrame = SignalMessage;
/** The `final` frame: the whole-trajectory report of an ended session. */
export type FinalFrame = FinalMessage;
/** The `started` frame that opened a session. */
export type StartedFrame = StartedMessage;

/** What `start` sends: the task, and optionally the session id (made by the client when absent), format, model, policy, learn. */
export type StartOptions = Omit<StartMessage, 'type'>;

/** Reconnect policy: up to `retries` attempts per drop, waiting `delayMs`, then twice as long each time (at most 30 s). */
export interface ReconnectOptions {
  retries: number;
  delayMs: number;
}

/** The WebSocket class the client uses (the `ws` package's, or one with the same API). */
export type WebSocketClass = typeof WebSocket;

export interface ConnectOptions {
  /** Bearer token, sent as `Authorization: Bearer TOKEN` on the upgrade. */
  token?: string;
  /** Reconnect and resume every open session when the socket drops (`true`: 5 retries from 200 ms). Default off. */
  reconnect?: boolean | ReconnectOptions;
  /** The WebSocket class to use (default: `ws`). */
  WebSocket?: WebSocketClass;
  /** Steps whose frame is larger are refused locally with `too_large` (default 1 MiB, the server's default limit). */
  maxFrameBytes?: number;
  /**
   * The client pings the server this often (ms; default 20 s, 0: never); a socket whose ping is unanswered at the
   * next one is dropped as dead (then reconnected, with `reconnect`).
   */
  heartbeatMs?: number;
  /**
   * A `start`, `step`, `end` or `ping` not answered within this many ms rejects with `timeout` (default 120 s; 0: no
   * deadline). The message stays in flight: a step's late frames still reach `scores` and `onScore`, a late final
   * `session.final`; a `start` that timed out gives its id up (a late `started` is ignored).
   */
  timeoutMs?: number;
  /**
   * A frame from the server larger than this many bytes is not read (default 100 MiB, `ws`' own limit): the connection
   * is closed and not reopened, and every pending call rejects `too_large` naming this option.
   */
  maxServerFrameBytes?: number;
}

/** @internal How a client was configured by `connect`. */
export interface ClientConfig {
  url: string;
  token: string | undefined;
  reconnect: ReconnectOptions | undefined;
  WebSocket: WebSocketClass;
  maxFrameBytes: number;
  heartbeatMs: number;
  timeoutMs: number;
  maxServerFrameBytes: number;
}

export const DEFAULT_RECONNECT: ReconnectOptions = { retries: 5, delayMs: 200 };
export const DEFAULT_MAX_FRAME_BYTES = 1024 * 1024;
