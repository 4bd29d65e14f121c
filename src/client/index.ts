/**
 * steplens client: a typed client for the steplens server's WebSocket protocol v1.
 *
 * ```ts
 * const client = await connect('http://127.0.0.1:8787', { token, reconnect: true });
 * const session = await client.start({ task: 'pylint-dev__astroid-1196', format: 'openhands' });
 * session.onSignal((s) => console.warn(s.kind, s.message));
 * for (const event of events) await session.step(event); // [] for an action awaiting its observation
 * session.outcome(true);
 * const final = await session.end();
 * await client.close();
 * ```
 */
export { connect } from './connect.js';
export { SteplensClient } from './client.js';
export { ClientSession } from './session.js';
export { SteplensClientError, type ClientErrorCode } from './errors.js';
export { streamUrl } from './url.js';
export type { ConnectOptions, FinalFrame, ReconnectOptions, ScoreFrame, SignalFrame, StartedFrame, StartOptions, WebSocketClass } from './types.js';
