/**
 * The guards on the server's sockets, before any route: requests pipelined and never read (T47), connections over
 * the per-address and total caps, and the address holding the most giving way at the total (T65), answers never read
 * (T113), and the server's own closes leaving unread answers to the kernel (T118). No token is needed to be refused,
 * so refusals are logged at a pace (T45: a line per refusal let one address write 1 MB of log a second).
 */
import type { Server } from 'node:http';
import type { Logger } from 'pino';
import { boundAnswerDrain } from './answer-drain.js';
import { lingerCloses } from './closing-sockets.js';
import { capConnections } from './connection-caps.js';
import type { AppMetrics } from './metrics.js';
import type { ServerLimits } from './server-limits.js';
import { PacedLine } from './paced-line.js';
import { capPipelining } from './pipelined-requests.js';

/** A connection refused over the caps is logged at most once this often (ms), the others counted on the next line. */
const REFUSED_LINE_MS = 10_000;

export function guardSockets(server: Server, limits: Pick<ServerLimits, 'connectionsPerAddress' | 'maxConnections' | 'answerDrainMs'>, metrics: Pick<AppMetrics, 'refusals'>, log: Logger): void {
  capPipelining(server, () => metrics.refusals.inc({ code: 'overloaded' }));
  const lines = { address: new PacedLine(REFUSED_LINE_MS), total: new PacedLine(REFUSED_LINE_MS), gaveWay: new PacedLine(REFUSED_LINE_MS), unread: new PacedLine(REFUSED_LINE_MS) };
  capConnections(
    server,
    { perAddress: limits.connectionsPerAddress, total: limits.maxConnections },
    (why) => {
      metrics.refusals.inc({ code: 'overloaded' });
      const { write, left } = lines[why].take(Date.now());
      if (write) log.warn(left > 0 ? { why, refusedUnlogged: left } : { why }, 'connection refused: over the connection limit');
    },
    () => {
      const { write, left } = lines.gaveWay.take(Date.now());
      if (write) log.warn(left > 0 ? { closedUnlogged: left } : {}, 'at the connection limit: a connection of the address holding the most closed for another client');
    },
  );
  boundAnswerDrain(server, limits.answerDrainMs, (req, unsent) => {
    metrics.refusals.inc({ code: 'overloaded' });
    const { write, left } = lines.unread.take(Date.now());
    const where = { method: req.method, route: req.url?.split('?')[0], address: req.socket.remoteAddress, unsent, answerDrainMs: limits.answerDrainMs };
    if (write) log.warn(left > 0 ? { ...where, resetUnlogged: left } : where, 'answer not read within answerDrainMs: connection reset');
  });
  lingerCloses(server, limits.answerDrainMs, (socket) => {
    metrics.refusals.inc({ code: 'overloaded' });
    const { write, left } = lines.unread.take(Date.now());
    const where = { address: socket.remoteAddress, answerDrainMs: limits.answerDrainMs };
    if (write) log.warn(left > 0 ? { ...where, resetUnlogged: left } : where, 'connection closed by the server not closed by its client within answerDrainMs: reset');
  });
}
