/**
 * `buildApp`: the steplens server as a fastify instance (HTTP routes and the
 * `/v1/stream` WebSocket). It does not listen; `server.ts` and tests do.
 * `app.close()` shuts down gracefully: readiness off, open sessions ended
 * (their `final` sent) or, with Redis, handed back to the other replicas
 * (leases released), sockets closed with a reason, the store flushed.
 */
import websocket from '@fastify/websocket';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Logger } from 'pino';
import { serverLogger } from './server-log.js';
import { setTextCompression } from '../core/memory/packed-text.js';
import { SteplensError } from '../errors.js';
import { FilePolicyStateStore } from '../store/policy-state.js';
import { defaultAnalyzers } from '../syntax/index.js';
import { Authenticator } from './auth.js';
import { LearningGuard } from './learning-guard.js';
import { ScopedReferences } from './reference-scope.js';
import { registerTicketRoutes } from './ticket-routes.js';
import { CLOSE, type Connection } from './connection.js';
import { guardSockets } from './socket-guards.js';
import { OwnPtaQuota } from './own-pta-quota.js';
import { installErrorShapes } from './http-errors.js';
import { registerHttpRoutes } from './http-routes.js';
import { registerScoringRoutes } from './scoring-routes.js';
import { registerPtaRemovalRoute } from './pta-removal-route.js';
import { createMetrics } from './metrics.js';
import { resolveOptions, type AppOptions } from './options.js';
import { ScorePool } from './score-pool.js';
import { PolicyManager } from './policy-manager.js';
import { checkShadow } from './shadow-options.js';
import { registerPolicyMetrics } from './policy-metrics.js';
import { registerPolicyRoutes } from './policy-routes.js';
import { SessionRegistry, type RegistryDeps } from './session-registry.js';
import { openBackend } from './backend.js';
import { DurableSessions } from './durable-sessions.js';
import { RedisMetrics } from './redis-metrics.js';
import type { HandlerDeps } from './stream-handler.js';
import { LiveFeed } from './live-feed.js';
import { StepViews } from './step-views.js';
import { registerWebAssets, webRoot } from './web-assets.js';
import { registerWebRoutes } from './web-routes.js';
import { calibrationDirWarning } from './calibration-view.js';
import { registerForecastRoutes } from './forecast-routes.js';
import { openForecastLearner } from './forecast-learner-open.js';
import { SiteCheck } from './site-check.js';
import { tenantStreams } from './tenant-streams.js';
import { limitTenantLines, tenantWarn } from './tenant-log.js';
import { createFastify, httpTimeouts } from './fastify-options.js';
import { installRequestGate } from './request-gate.js';
import { registerStreamRoute, streamFrames } from './stream-route.js';
import { ServerTimers } from './server-timers.js';

/** How long /readyz waits for the store (Redis PING) before answering not ready. */
const READINESS_DEADLINE_MS = 1000;

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
  const learner = await openForecastLearner(resolved, options.forecastLearn, log);
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

  const app = createFastify(resolved.limits, metrics, log);
  // Lines of a tenant's own events at its pace, bounded (T38): one agent token must not flood the operator's log.
  limitTenantLines(log, resolved.limits.logLinesPerTenant);
  if (!auth.enabled) log.warn('no tokens configured: authentication is off, anyone who can reach the server may use it');
  const noCalibration = calibrationDirWarning(options.calibrationDir);
  if (noCalibration !== undefined) log.warn(noCalibration);
  const streams = tenantStreams(resolved.limits);
  // Pipelined requests never read, the connection caps (socket-guards.ts).
  guardSockets(app.server, resolved.limits, metrics, log);

  installRequestGate(app, { sites, auth, streams, metrics, log, accepting: () => accepting });
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
      timers.stopSweeps();
      // With Redis, sessions are handed back (leases released) for other replicas to resume; else they end.
      if (durable) await durable.handBack();
      else await registry.endAll();
      for (const conn of connections.values()) conn.close(CLOSE.goingAway, 'server shutting down');
      await store.flush();
      await policies.flush();
      app.websocketServer.close();
      timers.stopHeartbeat();
      // Requests still being received (a half-sent body) or answered get a grace period, then their connections are cut.
      setTimeout(() => app.server.closeAllConnections(), resolved.limits.shutdownGraceMs).unref();
      // A keep-alive connection whose request is answered meanwhile is closed once idle, not held to the grace period.
      idleCloser = setInterval(() => app.server.closeIdleConnections(), 100);
      idleCloser.unref();
    },
  });

  const frames = streamFrames(deps, resolved.limits, metrics, log);
  registerStreamRoute(app, { limits: resolved.limits, metrics, log, auth, registry, connections, frames });

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

  const timers = new ServerTimers({ connections, registry, durable, leaseMs: backend.leaseMs, options: resolved, log });
  app.addHook('onClose', async () => {
    clearInterval(idleCloser);
    timers.stopSweeps();
    timers.stopHeartbeat();
    await learner?.stop();
    await pool.close();
    await backend.close();
    await policies.flush();
  });
  return app;
}
