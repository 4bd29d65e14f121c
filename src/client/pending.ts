/** What a client waits for from the server: pongs (barriers, recovery, resumes, pings) and sessions being started. */
import type WebSocket from 'ws';
import type { StartMessage } from '../protocol/client-messages.js';
import type { SteplensClientError } from './errors.js';
import type { ClientSession } from './session.js';

export interface Waiter<T> {
  resolve(value: T): void;
  reject(error: SteplensClientError): void;
}

/** Pongs come back in the order pings were sent; each says what it answers. */
export type PongWaiter = { kind: 'barrier'; id: number } | { kind: 'recovery' } | { kind: 'resume'; session: ClientSession; attempt: number } | ({ kind: 'ping' } & Waiter<void>);

export interface Starting extends Waiter<ClientSession> {
  message: StartMessage;
  /** Bytes of its frame (a 1009 close is matched to the largest frame in flight). */
  bytes: number;
  /** The socket it was last sent on (undefined: never sent). */
  sentOn: WebSocket | undefined;
}
