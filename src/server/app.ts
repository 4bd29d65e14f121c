/**
 * `buildApp`: the steplens server as a fastify instance (HTTP routes and the
 * `/v1/stream` WebSocket). It does not listen; `server.ts` and tests do.
 * `app.close()` shuts down gracefully: readiness off, open sessions ended
 * (their `final` sent) or, with Redis, handed back to the other replicas
 * (leases released), sockets closed with a reason, the store flushed.
 */
import websocket from '@fastify/websocket';
import type { Socket } from 'node:net';
import Fastify, { LogController, type FastifyBaseLogger, type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import type { Logger } from 'pino';
import { serverLogger } from './server-log.js';
import type { WebSocket } from 'ws';
import { setTextCompression } from '../core/memory/packed-text.js';
import { SteplensError, type ErrorCode } from '../errors.js';
import { FilePolicyStateStore } from '../store/policy-state.js';
import { defaultAnalyzers } from '../syntax/index.js';
import { Authenticator } from './auth.js';
import { accessOf, ROLE_NEEDED } from './access.js';
import { can } from './principal.js';
import { LearningGuard } from './learning-guard.js';
import { ScopedReferences } from './reference-scope.js';
import { registerTicketRoutes } from './ticket-routes.js';
import { CLOSE, Connection } from './connection.js';
import { guardSockets } from './socket-guards.js';
import { OutgoingTotal } from './outgoing-total.js';
import { FrameBatch } from './frame-batch.js';
import { OwnPtaQuota } from './own-pta-quota.js';
import { SMALL_BODY_BYTES, endWithError, frameworkErrorOptions, installErrorShapes, refusedBeforeRoute } from './http-errors.js';
import { registerHttpRoutes, sendError } from './http-routes.js';
import { registerScoringRoutes } from './scoring-routes.js';
import { registerPtaRemovalRoute } from './pta-removal-route.js';
import { createMetrics } from './metrics.js';
import { resolveOptions, type AppOptions, type ServerLimits } from './options.js';
import { ScorePool } from './score-pool.js';
import { checkShadow, PolicyManager } from './policy-manager.js';
import { registerPolicyMetrics } from './policy-metrics.js';
import { registerPolicyRoutes } from './policy-routes.js';
import { SessionRegistry, type RegistryDeps } from './session-registry.js';
import { openBackend } from './backend.js';
import { NO_ROUTE_SCHEMAS } from './no-route-schemas.js';
import { DurableSessions } from './durable-sessions.js';
import { RedisMetrics } from './redis-metrics.js';
import { handleFrame, type HandlerDeps } from './stream-handler.js';
import { LiveFeed } from './live-feed.js';
import { StepViews } from './step-views.js';
import { isPublicWebPath, registerWebAssets, webRoot } from './web-assets.js';
import { registerWebRoutes } from './web-routes.js';
import { calibrationDirWarning } from './calibration-view.js';
import { ForecastLearner } from './forecast-learner.js';
import { registerForecastRoutes } from './forecast-routes.js';
import { restoreVersions } from './forecast-versions.js';
import { isUpgrade, STREAM_ROUTE, upgradeRefusal } from './upgrade-check.js';
import { SiteCheck } from './site-check.js';
import { tenantStreams } from './tenant-streams.js';
import { BodyReceipts } from './body-receipts.js';
import { countPartialFrames, PARTIAL_FRAMES_CLOSE } from './partial-frames.js';
import { CONTROL_FRAMES_CLOSE, controlFramesPerWindow, controlFramesReason, countControlFrames } from './control-frames.js';
import { limitTenantLines, tenantInfo, tenantWarn } from './tenant-log.js';

/** How long /readyz waits for the store (Redis PING) before answering not ready. */
const READINESS_DEADLINE_MS = 1000;

/** Node's HTTP timeouts: headers and whole requests, checked every second (Node's default checks every 30 s). */
function httpTimeouts(limits: ServerLimits): { headersTimeout: number; requestTimeout: number; connectionsCheckingInterval: number } {
  const headersTimeout = Math.min(limits.headersTimeoutMs, limits.requestTimeoutMs);
  return { headersTimeout, requestTimeout: limits.requestTimeoutMs, connectionsCheckingInterval: Math.max(50, Math.min(1000, headersTimeout / 4)) };
}

/** A refused upgrade: the HTTP error answer written on the raw socket, which is then closed (no socket, no keep-alive). */
function refuseUpgrade(socket: Socket, reply: FastifyReply, code: ErrorCode, message: string): void {
  reply.hijack();
  endWithError(socket, code, message);
}

/** Builds the app (opens the store, wires routes); call `listen` or `inject` on the result. */
export async function buildApp(options: AppOptions = {}): Promise<FastifyInstance> {
  const resolved = resolveOptions(options);
  if (options.compressTexts !== undefined) setTextCompression(options.compressTexts);
  const log: Logger = options.logger ?? serverLogger(options.logLevel ?? 'info');
  const badShadow = resolved.shadow ? checkShadow(resolved.shadow) : undefined;
  if (badShadow !== undefined) throw new SteplensError('usage', badShadow);
  const redisMetrics = options.redis ? new RedisMetrics() : undefined;
  const backend = await openBackend(options, resolved, log, redisMetrics);
  const store = backend.store;
  const analyzers = defaultAnalyzers();
  const metrics = createMetrics(store);
  const ownBytes = resolved.limits.ptaBytesPerTenant;
  const references = new ScopedReferences(store, resolved.referenceScope, ownBytes > 0 ? new OwnPtaQuota(store, ownBytes) : undefined);
  const pool = new ScorePool({
    size: resolved.scoringWorkers,
    maxQueuedBytes: 4 * resolved.limits.maxBodyBytes,
    // Several tenants: none may fill the queue alone (two full-size requests each; one tenant: all of it), and the
    // last full-size request's room is kept for a tenant with none queued.
    ...(resolved.tenants > 1 ? { maxQueuedBytesPerTenant: 2 * resolved.limits.maxBodyBytes, reservedForNewTenants: resolved.limits.maxBodyBytes } : {}),
    log,
    reference: (task, tenant) => references.reference(task, tenant),
    prior: () => store.prior(),
    pta: async (task, tenant) => (await references.view(task, tenant))?.pta,
  });
  if (redisMetrics && backend.link) redisMetrics.register(metrics.registry, () => backend.link?.available() ?? false);
  // Shadow-mode counters stay in a file of this replica's data folder (with Redis too: see docs/scale-out.md).
  const policies = await PolicyManager.open(resolved.policySet, resolved.shadow, options.policyState ?? new FilePolicyStateStore(options.dataDir ?? './data'), log, resolved.limits);
  registerPolicyMetrics(metrics.registry, policies, resolved.limits.metricsPairs);
  const learning = new LearningGuard(resolved.limits, store.minReferences, resolved.tenants > 1, resolved.referenceScope === 'shared');
  const connections = new Map<number, Connection>();
  const learner =
    resolved.forecast !== undefined && options.forecastLearn !== undefined
      ? new ForecastLearner(
          resolved.forecast,
          {
            ...options.forecastLearn,
            scope: resolved.forecastLearnScope,
            maxSources: options.forecastLearn.maxSources ?? resolved.limits.forecastSources,
            versionsKept: options.forecastLearn.versionsKept ?? resolved.limits.forecastVersions,
            attemptsKept: options.forecastLearn.attemptsKept ?? resolved.limits.forecastAttempts,
          },
          log,
        )
      : undefined;
  // What an earlier run learned from the same --forecast file goes back in force (forecast-versions.ts, forecast-runs.ts, forecast-attempts.ts).
  const versionsDir = options.forecastLearn?.dir;
  if (learner !== undefined && versionsDir !== undefined) {
    await restoreVersions(resolved.forecast!, { dir: versionsDir, tenants: learner.scope === 'tenant', fresh: options.forecastLearn?.fresh === true }, log);
    // And the sessions it had kept over that file, so the next attempt sees what it would have seen without the restart, and its attempts.
    await learner.restore(options.forecastLearn?.fresh === true);
  }
  // Whole step views, one at a time and bounded per tenant, whichever route builds them (step-views.ts).
  const views = new StepViews();
  const live = new LiveFeed({
    maxViewers: resolved.limits.liveViewers,
    perTenant: resolved.limits.liveViewersPerTenant,
    // Several tenants: a few slots no agent can take, so an operator can always watch.
    forOperators: resolved.tenants > 1 ? Math.floor(resolved.limits.liveViewers / 16) : 0,
    queueBytes: resolved.limits.liveQueueBytes,
    config: resolved.config,
    metrics,
    log,
    tenants: resolved.tokens.length > 0,
    views,
  });
  const registryDeps: RegistryDeps = {
    store,
    references,
    analyzers,
    metrics,
    log,
    options: resolved,
    connections,
    policies,
    observer: live,
    learning,
    ...(learner !== undefined ? { onEnded: (s) => learner.add(s) } : {}),
  };
  const registry = new SessionRegistry(registryDeps);
  const durable = backend.journal ? new DurableSessions({ registry, journal: backend.journal, analyzers, options: resolved, log, metrics, endpoint: backend.link?.endpoint ?? 'Redis' }) : undefined;
  if (durable) registryDeps.durable = durable;
  const auth = new Authenticator(resolved.tokens, resolved.limits.ticketTtlMs);
  // Built before anything listens: a bad --allow-origin / --allowed-host fails the start. `app` is defined by the first request.
  const sites = new SiteCheck(options.allowOrigins ?? [], options.allowedHosts ?? [], () => app.addresses());
  let accepting = true;
  let idleCloser: NodeJS.Timeout | undefined;
  let nextConnection = 0;

  // Typed as fastify's base logger so `app` is the plain `FastifyInstance` the route modules take.
  const loggerInstance: FastifyBaseLogger = log;
  const app = Fastify({
    loggerInstance,
    // Bodies fastify itself parses (tickets, pins, freezes: a few hundred bytes) are JSON.parse'd on the event loop:
    // a tenant's 60 MB body to POST /v1/tickets held every client 3.5-5.6 s. The scoring routes read theirs as raw
    // bytes for a worker, up to maxBodyBytes (scoring-routes.ts).
    bodyLimit: Math.min(SMALL_BODY_BYTES, resolved.limits.maxBodyBytes),
    // Half-sent requests are not held for ever (nor, without auth, at all past these): 408-like, in the catalogue's shape.
    requestTimeout: resolved.limits.requestTimeoutMs,
    http: httpTimeouts(resolved.limits),
    logController: new LogController({ disableRequestLogging: true }),
    // A path parameter may hold any valid task id (256 characters, percent-escaped: up to 2,304) or session id.
    routerOptions: { maxParamLength: 4096 },
    ...frameworkErrorOptions(metrics),
    schemaController: NO_ROUTE_SCHEMAS,
  });
  // Lines of a tenant's own events at its pace, bounded (T38): one agent token must not flood the operator's log.
  limitTenantLines(log, resolved.limits.logLinesPerTenant);
  if (!auth.enabled) log.warn('no tokens configured: authentication is off, anyone who can reach the server may use it');
  const noCalibration = calibrationDirWarning(options.calibrationDir);
  if (noCalibration !== undefined) log.warn(noCalibration);
  const streams = tenantStreams(resolved.limits);
  // Messages begun and not finished, a tenant's streams together (T62).
  const partialFrames =
    resolved.limits.partialFrameBytesPerTenant > 0
      ? new BodyReceipts({ total: Number.MAX_SAFE_INTEGER, perTenant: resolved.limits.partialFrameBytesPerTenant, what: 'WebSocket messages begun on its streams and not finished' })
      : undefined;
  // Pipelined requests never read, the connection caps, answers never read (socket-guards.ts).
  guardSockets(app.server, resolved.limits, metrics, log);

  app.addHook('onRequest', async (req, reply) => {
    // Pipelined behind a request that closed its connection (T47): nobody to answer, nothing to run.
    if (req.raw.socket.destroyed) return reply.hijack();
    const route = req.url.split('?')[0];
    // Another site's page (a foreign Origin on the stream, a DNS-rebinding Host) is refused before anything else.
    const offSite = sites.refusal(req.headers, isUpgrade(req.headers));
    if (offSite !== undefined) {
      if (offSite.first) log.warn({ code: offSite.code, host: req.headers.host, origin: req.headers.origin }, `refused: ${offSite.message}`);
      if (!isUpgrade(req.headers)) return sendError(refusedBeforeRoute(req, reply), metrics, offSite.code, offSite.message);
      metrics.refusals.inc({ code: offSite.code });
      return refuseUpgrade(req.raw.socket, reply, offSite.code, offSite.message);
    }
    const upgradeRefused = isUpgrade(req.headers) ? upgradeRefusal(req.method, req.routeOptions.url, req.headers) : undefined;
    if (upgradeRefused !== undefined) {
      metrics.refusals.inc({ code: 'bad_message' });
      return refuseUpgrade(req.raw.socket, reply, 'bad_message', upgradeRefused);
    }
    // Liveness and readiness are open: balancers and Kubernetes probes send no token (the reason a replica is not
    // ready, which may name the Redis endpoint, is only given to a request with one).
    if (route === '/healthz' || route === '/readyz' || ((req.method === 'GET' || req.method === 'HEAD') && isPublicWebPath(route ?? ''))) return;
    // While shutting down only readiness and metrics are still answered.
    const closing = !accepting && route !== '/readyz' && route !== '/metrics';
    const id = auth.identify(req);
    const needs = accessOf(req);
    let refused: ErrorCode | undefined;
    let message = 'server shutting down';
    if (!id.ok) [refused, message] = ['unauthorized', id.message];
    else if (needs !== 'any' && !can(id.principal, needs)) [refused, message] = ['forbidden', `${req.method} ${route ?? ''} needs ${ROLE_NEEDED[needs]}`];
    else if (closing) refused = 'overloaded';
    if (refused === undefined && id.ok && route === STREAM_ROUTE && isUpgrade(req.headers)) {
      const overQuota = streams.refusal(id.principal);
      if (overQuota !== undefined) [refused, message] = ['quota_exceeded', overQuota];
      else streams.hold(id.principal, req.raw.socket);
    }
    if (refused === undefined) return;
    if (isUpgrade(req.headers)) {
      metrics.refusals.inc({ code: refused });
      return refuseUpgrade(req.raw.socket, reply, refused, message);
    }
    // Its connection closed once answered, its body awaited briefly (http-errors.ts, T53).
    return sendError(refusedBeforeRoute(req, reply), metrics, refused, message);
  });
  installErrorShapes(app, { metrics, log, maxBodyBytes: resolved.limits.maxBodyBytes, refusedBodyMs: httpTimeouts(resolved.limits).headersTimeout });

  const deps: HandlerDeps = { registry, metrics, log, options: resolved, ...(durable ? { durable } : {}) };
  await app.register(websocket, {
    // Frames up to 8x the limit are refused with an `error` frame; beyond that ws closes the socket (1009).
    options: { maxPayload: resolved.limits.maxFrameBytes * 8 },
    // ws closes a socket that breaks the protocol itself, with the matching code (1009 for a frame over
    // maxPayload, 1002, 1007); the plugin's default handler would then cut the TCP connection (the client
    // saw 1006). Other socket errors still end the connection.
    errorHandler: (error, socket, req) => {
      const code = (error as NodeJS.ErrnoException).code ?? '';
      // The client's doing, at the pace it reconnects: within its tenant's lines, and without our stack (T45).
      if (code.startsWith('WS_ERR_')) return void tenantWarn(log, auth.principal(req).tenant, { code, reason: error.message }, 'websocket protocol error: closed with its code');
      log.warn({ err: error }, 'websocket error');
      socket.terminate();
    },
    preClose: async () => {
      accepting = false;
      frames.drainAll();
      for (const conn of connections.values()) conn.drainQueued();
      clearInterval(sweeper);
      clearInterval(leaseKeeper);
      // With Redis, sessions are handed back (leases released) for other replicas to resume; else they end.
      if (durable) await durable.handBack();
      else await registry.endAll();
      for (const conn of connections.values()) conn.close(CLOSE.goingAway, 'server shutting down');
      await store.flush();
      await policies.flush();
      app.websocketServer.close();
      clearInterval(heartbeat);
      // Requests still being received (a half-sent body) or answered get a grace period, then their connections are cut.
      setTimeout(() => app.server.closeAllConnections(), resolved.limits.shutdownGraceMs).unref();
      // A keep-alive connection whose request is answered meanwhile is closed once idle, not held to the grace period.
      idleCloser = setInterval(() => app.server.closeIdleConnections(), 100);
      idleCloser.unref();
    },
  });

  // Every stream's queued answers together (T66): per connection alone, clients that never read held 4 MiB on each.
  const outgoing = new OutgoingTotal(resolved.limits.outgoingBytesTotal);
  const frames = new FrameBatch(
    (conn, raw, isBinary) => conn.handle(() => handleFrame(deps, conn, raw, isBinary)),
    (error) => log.error({ err: error }, 'frame handler failed'),
    undefined,
    // Every stream's held frames together (T67): a read of tiny frames held ~1.2 MB a stream, 2,000 streams over a GB.
    resolved.limits.heldFrameBytesTotal,
    (conn, weight) => {
      metrics.refusals.inc({ code: 'overloaded' });
      tenantWarn(log, conn.principal.tenant, { connection: conn.id, held: weight }, 'frames held over heldFrameBytesTotal: connection closed (1008)');
      conn.close(CLOSE.tooSlow, `overloaded: all streams' held frames over heldFrameBytesTotal, ${weight} bytes of them this one's`);
    },
  );
  // A plain GET (a proxy that drops the Upgrade header, a browser) gets the JSON error shape of every other route.
  // Ping and pong frames a stream may send a second: above the pongs the server's own pings ask for (control-frames.ts).
  const controlBound = controlFramesPerWindow(resolved.limits.wsPingIntervalMs);
  const notUpgraded = (_req: FastifyRequest, reply: FastifyReply) =>
    sendError(reply, metrics, 'bad_message', 'GET /v1/stream is a WebSocket endpoint: send the upgrade (Upgrade: websocket), or a proxy dropped it');
  app.route({
    method: 'GET',
    url: STREAM_ROUTE,
    handler: notUpgraded,
    wsHandler: (socket: WebSocket, req) => {
      const id = ++nextConnection;
      const conn = new Connection(
        id,
        socket,
        resolved.limits.outgoingQueueBytes,
        (queued) => {
          metrics.refusals.inc({ code: 'overloaded' });
          tenantWarn(log, conn.principal.tenant, { connection: id, queued }, 'client not reading: connection closed (1008)');
        },
        undefined,
        outgoing,
      );
      conn.principal = auth.principal(req);
      connections.set(conn.id, conn);
      metrics.activeConnections.set(connections.size);
      tenantInfo(log, conn.principal.tenant, { connection: conn.id }, 'connection opened');
      if (partialFrames) {
        countPartialFrames(socket, req.raw.socket, partialFrames.hold(conn.principal.tenant), (refusal) => {
          metrics.refusals.inc({ code: refusal.code });
          tenantWarn(log, conn.principal.tenant, { connection: id }, "messages begun over the tenant's partialFrameBytesPerTenant: connection closed (1008)");
          conn.close(PARTIAL_FRAMES_CLOSE, `${refusal.code}: messages begun, not finished, over partialFrameBytesPerTenant`);
        });
      }
      // Pings and pongs are read by ws below the frame batch: a flood of them is closed, not paced (T106).
      countControlFrames(
        socket,
        () => {
          metrics.refusals.inc({ code: 'bad_message' });
          tenantWarn(log, conn.principal.tenant, { connection: id }, 'ping/pong frames over the bound: connection closed (1008)');
          conn.stopReads();
          conn.close(CONTROL_FRAMES_CLOSE, controlFramesReason(controlBound));
        },
        controlBound,
      );
      // Handled at the end of the turn, the socket paused past FRAMES_PER_TURN frames in it (frame-batch.ts).
      socket.on('message', (data, isBinary) => {
        const raw = Array.isArray(data) ? Buffer.concat(data) : Buffer.isBuffer(data) ? data : Buffer.from(data);
        frames.add(conn, raw, isBinary);
      });
      socket.on('close', (code) => {
        connections.delete(conn.id);
        metrics.activeConnections.set(connections.size);
        tenantInfo(log, conn.principal.tenant, { connection: conn.id, code }, 'connection closed');
        // Its sessions are detached once every frame it sent is handled: those still held, then those queued behind
        // a slow message, each at their pace (conn.closed).
        frames.drain(conn, () => registry.closed(conn));
      });
    },
  });

  const routeDeps = {
    store,
    references,
    registry,
    analyzers,
    pool,
    metrics,
    options: resolved,
    // Redis answers PING (and takes writes) within a deadline; a paused Redis keeps its TCP link up.
    readiness: async () => (accepting ? store.health(READINESS_DEADLINE_MS) : 'server shutting down'),
    principal: (req: FastifyRequest) => auth.principal(req),
    identified: (req: FastifyRequest) => auth.identify(req).ok,
    learning,
    ...(durable ? { durable } : {}),
  };
  registerHttpRoutes(app, routeDeps);
  registerPtaRemovalRoute(app, routeDeps);
  registerScoringRoutes(app, routeDeps);
  registerPolicyRoutes(app, { policies, metrics, principal: routeDeps.principal });
  registerTicketRoutes(app, { ...routeDeps, auth, live });
  registerForecastRoutes(app, { holder: resolved.forecast, learner, metrics, principal: routeDeps.principal });
  learner?.start();
  registerWebRoutes(app, { ...routeDeps, auth: auth.enabled, calibrationDir: options.calibrationDir, views });
  live.register(app, registry, auth);
  await registerWebAssets(app, webRoot());

  // A half-open connection (the peer gone without a close) never answers a ping: it is closed, its sessions stay resumable.
  const heartbeat = setInterval(() => {
    for (const conn of connections.values()) if (!conn.beat()) log.info({ connection: conn.id }, 'no pong to the last ping: connection closed');
  }, resolved.limits.wsPingIntervalMs);
  heartbeat.unref();

  const sweepEvery = Math.max(50, Math.min(resolved.idleTimeoutMs, resolved.resumeWindowMs, 10_000) / 4);
  const sweeper = setInterval(() => void registry.sweep().catch((error: unknown) => log.error({ err: error }, 'sweep failed')), sweepEvery);
  sweeper.unref();
  const leaseKeeper = durable
    ? setInterval(() => void durable.renewLeases().catch((error: unknown) => log.warn({ err: error }, 'lease renewal failed')), Math.max(50, (backend.leaseMs ?? 15_000) / 3))
    : undefined;
  leaseKeeper?.unref();
  app.addHook('onClose', async () => {
    clearInterval(idleCloser);
    clearInterval(sweeper);
    clearInterval(heartbeat);
    clearInterval(leaseKeeper);
    await learner?.stop();
    await pool.close();
    await backend.close();
    await policies.flush();
  });
  return app;
}
