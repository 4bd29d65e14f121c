/**
 * Every HTTP error in the catalogue's shape, `{ error: { code, message } }` (src/errors.ts), fastify's own
 * included: unknown routes (`unknown_route`), bad URL encoding, malformed requests, bodies over the limit,
 * requests during shutdown. A body over the limit is answered 413 at once and then read to its end
 * (up to a bound; on a connection that is not kept alive, read first and then answered), so a client still
 * uploading gets the answer instead of a broken pipe.
 */
import { STATUS_CODES, type IncomingMessage } from 'node:http';
import type { Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Logger } from 'pino';
import { ERROR_CODES, SteplensError, type ErrorCode } from '../errors.js';
import { EMPTY_BODY } from '../protocol/parse.js';
import { sendError } from './http-routes.js';
import type { AppMetrics } from './metrics.js';

/** A whole HTTP/1.1 error response, for sockets fastify does not answer on (refused upgrades, parse errors). */
export function rawErrorResponse(code: ErrorCode, message: string): string {
  const body = JSON.stringify({ error: { code, message } });
  const status = ERROR_CODES[code].status;
  return `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? ''}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`;
}

/** Writes a catalogue error on a raw socket and closes it. */
export function endWithError(socket: Socket | Duplex, code: ErrorCode, message: string): void {
  if (!socket.writable) return void socket.destroy();
  socket.end(rawErrorResponse(code, message), () => socket.destroy());
}

/** Fastify constructor options for errors raised before a route runs: bad URLs, long parameters, unparsable requests. */
export function frameworkErrorOptions(metrics: AppMetrics) {
  return {
    frameworkErrors: (error: FastifyError, _req: FastifyRequest, reply: FastifyReply) =>
      error.code === 'FST_ERR_MAX_PARAM_LENGTH'
        ? sendError(reply, metrics, 'too_large', 'url: a path parameter is too long')
        : sendError(reply, metrics, 'bad_message', error.code === 'FST_ERR_BAD_URL' ? 'url: not a valid percent-encoding' : `url: ${error.message}`),
    clientErrorHandler: (error: NodeJS.ErrnoException, socket: Socket) => {
      if (error.code === 'ECONNRESET' || !socket.writable) return void socket.destroy();
      const tooLarge = error.code === 'HPE_HEADER_OVERFLOW';
      const message = tooLarge
        ? 'request headers too large'
        : error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
          ? 'request not received in time (its headers, or the whole request, took too long)'
          : 'malformed HTTP request';
      metrics.refusals.inc({ code: tooLarge ? 'too_large' : 'bad_message' });
      endWithError(socket, tooLarge ? 'too_large' : 'bad_message', message);
    },
    // Requests during shutdown reach the hooks, which refuse them in the catalogue shape (fastify's own 503 body is not).
    return503OnClosing: false,
  };
}

/** Bodies past this many bytes are not read to their end after the 413: the connection is closed instead. */
const DRAIN_BYTES = 256 * 1024 * 1024;

/**
 * The body limit of every route but the scoring ones (which read theirs as raw bytes for a worker, up to
 * `maxBodyBytes`): their bodies are parsed on the event loop, and the largest they take is well under 1 KiB.
 */
export const SMALL_BODY_BYTES = 64 * 1024;

/** The body limit of the route `req` was matched to. */
function bodyLimitOf(req: FastifyRequest, maxBodyBytes: number): number {
  return req.routeOptions.bodyLimit ?? maxBodyBytes;
}

/**
 * Requests refused before their route ran (no or a wrong token, a role that may not, another site's page): their
 * connection is closed once answered, and the answer waits for the body still coming at most `refusedBodyMs` (T53).
 */
const refusedEarly = new WeakSet<FastifyRequest>();

/** Marks `req` refused before its route ran (see {@link refusedEarly}); returns `reply` to send the refusal on. */
export function refusedBeforeRoute(req: FastifyRequest, reply: FastifyReply): FastifyReply {
  refusedEarly.add(req);
  return reply.header('connection', 'close');
}

/** Resolves once the request's body is read to its end (and dropped), past `bound` bytes, after `ms`, or when the connection is gone. */
function drain(body: IncomingMessage, bound: number, ms?: number): Promise<void> {
  return new Promise((resolve) => {
    let read = 0;
    const timer = ms !== undefined ? setTimeout(() => done(), ms) : undefined;
    const done = () => {
      clearTimeout(timer);
      body.off('data', count);
      resolve();
    };
    const count = (chunk: Buffer) => {
      read += chunk.length;
      if (read > bound) done();
    };
    body.on('data', count).once('end', done).once('close', done).once('error', done);
  });
}

/** The error and not-found handlers, and the early refusal of a declared body over the limit. */
export function installErrorShapes(app: FastifyInstance, deps: { metrics: AppMetrics; log: Logger; maxBodyBytes: number; refusedBodyMs: number }): void {
  const { metrics, log, maxBodyBytes } = deps;
  // Every body is JSON: one sent as text/plain (what fetch sends for a string without a header) is refused naming
  // its content type, not read as a string that the routes then take for an empty or non-object body.
  app.removeContentTypeParser('text/plain');
  app.setErrorHandler((error: FastifyError, req, reply) => {
    // An expected failure on any route (the store unreachable or full, a PTA cap): its own code, not an internal error.
    if (error instanceof SteplensError) return sendError(reply, metrics, error.code, error.message);
    if (error.code === 'FST_ERR_CTP_BODY_TOO_LARGE') return sendError(reply, metrics, 'too_large', `body exceeds ${bodyLimitOf(req, maxBodyBytes)} bytes`);
    if (error.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE') {
      const type = JSON.stringify((req.headers['content-type'] ?? '').slice(0, 100));
      return sendError(reply, metrics, 'bad_message', `body: content type ${type} is not accepted: send the JSON body as application/json`);
    }
    // An empty body sent as application/json: the words every route answers an empty body with, not fastify's.
    if (error.code === 'FST_ERR_CTP_EMPTY_JSON_BODY') return sendError(reply, metrics, 'bad_message', EMPTY_BODY);
    if (error.statusCode === 400) return sendError(reply, metrics, 'bad_message', `body: ${error.message}`);
    if (error.statusCode === 413) return sendError(reply, metrics, 'too_large', error.message);
    log.error({ err: error }, 'request failed');
    return sendError(reply, metrics, 'internal', ERROR_CODES.internal.summary);
  });
  const notFound = (req: FastifyRequest, reply: FastifyReply): FastifyReply => sendError(reply, metrics, 'unknown_route', `no route ${req.method} ${req.url.split('?')[0]}`);
  app.setNotFoundHandler(notFound);

  // A declared length over the limit is refused before the body is read; the body is then drained (the
  // server reads and drops it) so the client can finish sending and read the answer. Past the drain bound the
  // connection is closed after the answer instead.
  const drainBytes = Math.max(DRAIN_BYTES, 4 * maxBodyBytes);
  app.addHook('onRequest', async (req, reply) => {
    // Answered before its body is read: fastify would parse a JSON body (up to the server's limit) for the not-found
    // handler. Not a GET (no body read; an upgrade's 404 is closed as before).
    if (req.is404 && req.method !== 'GET' && req.method !== 'HEAD') return notFound(req, reply);
    const declared = Number(req.headers['content-length']);
    const limit = bodyLimitOf(req, maxBodyBytes);
    if (!(declared > limit)) return;
    if (declared > drainBytes) reply.header('connection', 'close');
    return sendError(reply, metrics, 'too_large', `body of ${declared} bytes exceeds ${limit} bytes`);
  });
  // On a kept-alive connection Node reads the unread rest of a body after the answer. One that is not kept alive
  // (`Connection: close`, what Python's urllib sends; HTTP/1.0) it closes once the answer is written, dropping
  // the body still arriving: a client still sending got EPIPE or a reset instead of the answer (the 413, a 401).
  // There the body is read first, within the same bound (and requestTimeoutMs), then answered. A request refused
  // before its route ran is answered the same way, but waits for its body no longer than a client is given for its
  // headers (`refusedBodyMs`), then its connection is closed: a client without a token trickling a body in after its
  // 401 held the connection 120 s (requestTimeoutMs), idle after it 72 s (keep-alive), 256 per address (T53).
  app.addHook('onSend', async (req, reply) => {
    if (req.raw.complete) return;
    if (refusedEarly.has(req)) await drain(req.raw, drainBytes, deps.refusedBodyMs);
    else if (!reply.raw.shouldKeepAlive && reply.getHeader('connection') !== 'close') await drain(req.raw, drainBytes);
  });
}
