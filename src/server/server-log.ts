/**
 * The server's logger: pino's JSON lines, with the control characters a terminal acts on (C1 controls such as 0x9b,
 * a one-byte CSI, and the bidi overrides) written as `\uXXXX` escapes. A tenant's task id, agent or model name
 * reaches the log as given, and operators read logs in terminals (T72); pino escapes C0 controls only. The escapes
 * are JSON escapes: a line parses to the same values.
 */
import { pino, type DestinationStream, type Logger } from 'pino';
import { escapeControl } from '../printable.js';

export function serverLogger(level: string, destination?: DestinationStream): Logger {
  const options = { level, hooks: { streamWrite: escapeControl } };
  return destination === undefined ? pino(options) : pino(options, destination);
}
