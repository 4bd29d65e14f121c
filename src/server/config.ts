/** Server configuration from command-line flags and environment (shared by `server.ts` and `steplens serve`). */
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { SteplensError } from '../errors.js';
import { bundledReferencesDir, forecastFileArg } from '../package-files.js';
import { readConfigFile, readForecastFile, readPolicySetFile } from '../settings-files.js';
import { loadTokens } from './auth.js';
import type { AppOptions, RedisSettings } from './options.js';
import { DEFAULT_LIMITS, type ServerLimits } from './server-limits.js';
import { checkRedisUrl } from '../store/redis/redis-url.js';
import { REFERENCE_SCOPES, type ReferenceScope } from './reference-scope.js';
import { FORECAST_LEARN_SCOPES, type ForecastLearnScope } from './forecast-learn-options.js';
import { configureInputLimit } from '../text-files.js';
import { SiteCheck } from './site-check.js';

export interface ServerConfig {
  host: string;
  port: number;
  app: AppOptions;
}

export const SERVE_USAGE = `usage: steplens serve [--host H] [--port P] [--data DIR] [--seed DIR]... [--no-seed] [--token T]... [--token-file FILE]
                      [--log-level L] [--resume-window SECONDS] [--idle-timeout SECONDS] [--learn] [--policy POLICY.json]
                      [--config CONFIG.json] [--compress-texts] [--forecast FORECAST.json [--forecast-learn [--forecast-learn-every SECONDS] [--forecast-learn-scope tenant|shared] [--forecast-learn-fresh]]]
                      [--shadow] [--shadow-share R] [--shadow-max-false-stop R] [--shadow-confidence C] [--calibration DIR]
                      [--redis URL [--redis-prefix P] [--replica-id ID] [--lease SECONDS]] [--sessions-per-tenant N] [--reference-scope tenant|shared]
                      [--limit NAME=VALUE]... [--allow-origin ORIGIN]... [--allowed-host NAME]...
  defaults: --host 127.0.0.1 --port 8787 --data $XDG_DATA_HOME/steplens (~/.local/share/steplens), seeded from the bundled references
  --no-seed: without the bundled references; --seed DIR: also the PTAs (<task>.json) of DIR
  --log-level L: fatal, error, warn, info (default), debug, trace or silent (JSON lines on stdout)
  --resume-window SECONDS: how long a dropped connection's sessions stay resumable before they are ended (default 300)
  --idle-timeout SECONDS: how long a session may go without a message before it is ended (default 1800)
  --learn: sessions learn unless their start says learn: false (default: only those that say learn: true); a learning
            session that ends passed grows its task's PTA
  env: STEPLENS_HOST, STEPLENS_PORT, STEPLENS_DATA, STEPLENS_TOKENS (comma-separated), STEPLENS_TOKEN_FILE, STEPLENS_LOG_LEVEL, STEPLENS_POLICY, STEPLENS_CONFIG, STEPLENS_COMPRESS_TEXTS=1,
       STEPLENS_SHADOW=1, STEPLENS_SHADOW_SHARE, STEPLENS_CALIBRATION, STEPLENS_SESSIONS_PER_TENANT, STEPLENS_REFERENCE_SCOPE, STEPLENS_FORECAST, STEPLENS_FORECAST_LEARN_SCOPE,
       STEPLENS_ALLOW_ORIGINS, STEPLENS_ALLOWED_HOSTS (comma-separated)
  --token-file: one token per line, optionally with tenant=NAME and role=agent|operator|metrics (README, "Server");
            a token without them (and every --token / STEPLENS_TOKENS) is an agent of its own tenant
  --sessions-per-tenant N: open sessions (detached ones included) one tenant may hold (default a quarter of totalSessions, at most
            1024: 1024 of 4096; with one tenant, all)
  --reference-scope: tenant (the default with two tenants or more): a tenant's references and learn sessions grow its own PTA
            of the task, which its sessions use before the shared one (an operator's grow the shared one); shared (the default
            with one tenant): one PTA per task grown and used by every tenant, within the shared-learning bounds (README, "Server")
  --policy: early-stop policy, or policies per agent / model with a fallback (what steplens calibrate [--by G] --out writes);
            a session gets its start.agent / start.model group's, and its start.policy overrides that
  --shadow: sessions that report an outcome calibrate each agent + model's stops; until a stop's 95% upper bound of false stops
            is within --shadow-max-false-stop (default 0.05) the pair only warns; then --shadow-share (default 0.1) of its sessions
            stay warn-only to keep counting (state in DATA/policies/state.json; GET /v1/policies, POST /v1/policies/pin|freeze);
            --shadow-confidence C: that bound's confidence (default 0.95)
  --config: scoring config (weights, tiers...; what steplens calibrate --weights --config-out writes)
  --compress-texts: also deflate long texts of stepping sessions once cold (sessions idle 5 s are deflated anyway; less memory, more CPU per step)
  --forecast: outcome forecast model(s) (what steplens train --out writes; 'bundled': the one shipped, trained on public runs):
    adds pPass to score frames, final, GET /v1/sessions/:id and reports
  --forecast-learn: retrain the forecast from finished sessions that reported an outcome, every --forecast-learn-every seconds
    (default 600); a new model goes in force only if a task-disjoint check finds it not worse; versions go to DATA/forecasts/
  --forecast-learn-scope: tenant (the default with two tenants or more): a tenant's outcomes train models its own sessions use
            (an operator's train the shared ones); shared (the default with one tenant): every tenant's outcomes train the
            models every tenant uses (docs/forecast.md, "Served live")
  --forecast-learn-fresh: start from the --forecast file; without it the newest versions in DATA/forecasts/ learned from that
            same file are put back in force at start, and the sessions the learner had kept (runs.jsonl) and its attempts
            (attempts.json) read back
  --calibration DIR: the --out-dir of steplens calibrate; the web view (http://HOST:PORT/) shows its trade-off chart
  --limit NAME=VALUE: one server limit (proto/README.md, Limits), e.g. --limit ptaReferences=200 --limit connectionsPerAddress=0
           (0 turns a connection cap off: behind a load balancer every connection comes from its address); env STEPLENS_LIMITS (comma-separated);
           with --redis, journalBytesPerTenant (default 536870912, 512 MiB; 0 = no bound) is the bytes one tenant's sessions
           keep in Redis (records, finals, steps): keep Redis' maxmemory above it times the tenants (docs/scale-out.md); ptaBytesPerTenant (default
           268435456, 256 MiB; 0 = no bound) is the JSON bytes one tenant's own PTAs (tenant reference scope) may hold together;
           stepBytesPerTenant (with two tenants or more a quarter of stepBytesTotal, at most 512 MiB; with one 0 = no bound) is the step bytes one tenant's
           open sessions hold in this server's memory (the heap needs about 1.6 times it per tenant streaming big steps);
           stepBytesTotal (default a quarter of the heap limit; 0 = no bound) is the step bytes all open sessions hold together;
           logLinesPerTenant (with two tenants or more 1200; with one 0 = no bound) is the log lines a minute one tenant's
           sessions and streams may write (started, ended, resumed, freed, opened, closed); past it they are left out and counted
  --allow-origin ORIGIN: a web page of ORIGIN (scheme://host[:port]; * for any) may open /v1/stream; a browser's upgrade from
           any origin but the server's own (that of its Host) is refused 403 forbidden_origin (cross-site WebSocket hijacking).
           Clients that are not browsers send no Origin. Needed for a page served from elsewhere, or a proxy that rewrites Host
  --allowed-host NAME: a server listening on loopback answers only Host localhost, 127.0.0.1, [::1] or its own address (any port),
           else 403 forbidden_host (DNS rebinding); this adds NAME (* for any). Not checked when listening on another address
  --redis: share references and sessions with other replicas through Redis (env STEPLENS_REDIS_URL, STEPLENS_REDIS_PREFIX,
           STEPLENS_REPLICA_ID); --data then holds only this replica's shadow-mode state, and --seed directories are imported
           for tasks Redis lacks (docs/scale-out.md); --redis-prefix P: every key's prefix (default steplens:), --replica-id ID:
           this replica's name in session leases and logs (default host-pid-random), --lease SECONDS: how long a session's
           lease lasts unless renewed (default 15)`;

/**
 * Where references are written when neither --data nor STEPLENS_DATA says: the user's data folder
 * ($XDG_DATA_HOME/steplens, else ~/.local/share/steplens), never the working tree a server was started from.
 */
export function defaultDataDir(env: NodeJS.ProcessEnv): string {
  const base = env.XDG_DATA_HOME && path.isAbsolute(env.XDG_DATA_HOME) ? env.XDG_DATA_HOME : path.join(os.homedir(), '.local', 'share');
  return path.join(base, 'steplens');
}

function positiveNumber(flag: string, value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isFinite(n) || n <= 0) throw new SteplensError('usage', `${flag} must be a positive number (got '${value}')`);
  return n;
}

/** `--redis` and its companions (env fallbacks); undefined without a Redis URL. */
function redisSettings(values: Record<string, unknown>, env: NodeJS.ProcessEnv): RedisSettings | undefined {
  const url = (values.redis as string | undefined) ?? env.STEPLENS_REDIS_URL;
  if (url === undefined || url === '') return undefined;
  checkRedisUrl(url);
  const prefix = (values['redis-prefix'] as string | undefined) ?? env.STEPLENS_REDIS_PREFIX;
  const replica = (values['replica-id'] as string | undefined) ?? env.STEPLENS_REPLICA_ID;
  const lease = positiveNumber('--lease', values.lease as string | undefined);
  return {
    url,
    ...(prefix !== undefined ? { prefix } : {}),
    ...(replica !== undefined && replica !== '' ? { replicaId: replica } : {}),
    ...(lease !== undefined ? { leaseMs: lease * 1000 } : {}),
  };
}

/** Limits that 0 turns off; every other one must be a positive integer. */
const ZERO_TURNS_OFF = new Set([
  'connectionsPerAddress',
  'maxConnections',
  'connectionsPerTenant',
  'streamUpgradesPerSecond',
  'answerDrainMs',
  'journalBytesPerTenant',
  'stepBytesPerTenant',
  'stepBytesTotal',
  'outgoingBytesTotal',
  'heldFrameBytesTotal',
  'partialFrameBytesPerTenant',
  'logLinesPerTenant',
  'forecastVersions',
  'ptaBytesPerTenant',
]);

/** `NAME=VALUE` pairs of `--limit` into server limits (names of {@link DEFAULT_LIMITS}, positive integers; 0 turns a connection cap off). */
export function parseLimits(pairs: readonly string[]): Partial<ServerLimits> {
  const out: Partial<Record<keyof ServerLimits, number>> = {};
  for (const pair of pairs) {
    const at = pair.indexOf('=');
    const name = pair.slice(0, at).trim();
    const text = pair.slice(at + 1).trim();
    if (at < 0 || !Object.hasOwn(DEFAULT_LIMITS, name)) throw new SteplensError('usage', `--limit: '${pair}' is not NAME=VALUE with NAME one of ${Object.keys(DEFAULT_LIMITS).join(', ')}`);
    const value = Number(text);
    const least = ZERO_TURNS_OFF.has(name) ? 0 : 1;
    if (text === '' || !Number.isSafeInteger(value) || value < least) throw new SteplensError('usage', `--limit ${name}: expected an integer of at least ${least} (got '${text}')`);
    out[name as keyof ServerLimits] = value;
  }
  return out;
}

/** pino's levels: another one was pino's "default level:bogus must be included in custom levels", an internal error. */
const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];

function logLevel(flag: string | undefined, env: string | undefined): string {
  const level = flag ?? env ?? 'info';
  if (!LOG_LEVELS.includes(level)) throw new SteplensError('usage', `${flag !== undefined ? '--log-level' : 'STEPLENS_LOG_LEVEL'} must be one of ${LOG_LEVELS.join(', ')} (got '${level}')`);
  return level;
}

/** A repeatable flag's values, else its comma-separated environment variable's (blanks dropped). */
function listOption(flags: string[] | undefined, env: string | undefined): string[] {
  return (flags ?? (env ?? '').split(',')).map((x) => x.trim()).filter((x) => x !== '');
}

/** Parses flags (and env fallbacks) into a server configuration. */
export async function serverConfig(args: string[], env: NodeJS.ProcessEnv, cwd: string): Promise<ServerConfig> {
  const { values } = parseArgs({
    args,
    options: {
      host: { type: 'string' },
      port: { type: 'string' },
      data: { type: 'string' },
      seed: { type: 'string', multiple: true },
      token: { type: 'string', multiple: true },
      'token-file': { type: 'string' },
      'log-level': { type: 'string' },
      'resume-window': { type: 'string' },
      'idle-timeout': { type: 'string' },
      learn: { type: 'boolean' },
      'no-seed': { type: 'boolean' },
      policy: { type: 'string' },
      config: { type: 'string' },
      'compress-texts': { type: 'boolean' },
      shadow: { type: 'boolean' },
      'shadow-share': { type: 'string' },
      'shadow-max-false-stop': { type: 'string' },
      'shadow-confidence': { type: 'string' },
      forecast: { type: 'string' },
      'forecast-learn': { type: 'boolean' },
      'forecast-learn-every': { type: 'string' },
      'forecast-learn-scope': { type: 'string' },
      'forecast-learn-fresh': { type: 'boolean' },
      redis: { type: 'string' },
      'redis-prefix': { type: 'string' },
      'replica-id': { type: 'string' },
      lease: { type: 'string' },
      calibration: { type: 'string' },
      limit: { type: 'string', multiple: true },
      'sessions-per-tenant': { type: 'string' },
      'reference-scope': { type: 'string' },
      'allow-origin': { type: 'string', multiple: true },
      'allowed-host': { type: 'string', multiple: true },
    },
    allowPositionals: false,
  });
  // npm start comes here without the CLI's check: a bad STEPLENS_MAX_INPUT_BYTES is refused at start, not at a PTA's read.
  const limit = configureInputLimit(env);
  if (!limit.ok) throw limit.error;
  const portText = values.port ?? env.STEPLENS_PORT ?? '8787';
  const port = Number(portText);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new SteplensError('usage', `${values.port !== undefined ? '--port' : 'STEPLENS_PORT'} must be 0-65535 (got '${portText}')`);
  const dataDir = path.resolve(cwd, values.data ?? env.STEPLENS_DATA ?? defaultDataDir(env));
  const bundled = values['no-seed'] ? undefined : bundledReferencesDir();
  const seeds = [...(values.seed ?? []).map((d) => path.resolve(cwd, d)), ...(bundled ? [bundled] : [])].filter((d) => d !== dataDir);
  const tokenFile = values['token-file'] ?? env.STEPLENS_TOKEN_FILE;
  const tokens = await loadTokens({
    ...(values.token ? { tokens: values.token } : {}),
    ...(env.STEPLENS_TOKENS ? { envValue: env.STEPLENS_TOKENS } : {}),
    ...(tokenFile ? { file: path.resolve(cwd, tokenFile) } : {}),
  });
  const level = logLevel(values['log-level'], env.STEPLENS_LOG_LEVEL);
  const resume = positiveNumber('--resume-window', values['resume-window']);
  const idle = positiveNumber('--idle-timeout', values['idle-timeout']);
  const policyFile = values.policy ?? env.STEPLENS_POLICY;
  const set = policyFile !== undefined ? await readPolicySetFile(path.resolve(cwd, policyFile)) : undefined;
  const shadowOn = values.shadow === true || env.STEPLENS_SHADOW === '1';
  const shadowRate = (flag: string, value: string | undefined): number | undefined => {
    if (value === undefined) return undefined;
    const x = Number(value);
    if (value.trim() === '' || !(x >= 0 && x <= 1)) throw new SteplensError('usage', `${flag} must be a rate between 0 and 1 (got '${value}')`);
    return x;
  };
  const share = shadowRate('--shadow-share', values['shadow-share'] ?? env.STEPLENS_SHADOW_SHARE);
  const maxFalseStop = shadowRate('--shadow-max-false-stop', values['shadow-max-false-stop']);
  const confidence = shadowRate('--shadow-confidence', values['shadow-confidence']);
  if ((share ?? maxFalseStop ?? confidence) !== undefined && !shadowOn) throw new SteplensError('usage', '--shadow-share, --shadow-max-false-stop and --shadow-confidence need --shadow');
  if (confidence !== undefined && (confidence === 0 || confidence === 1))
    throw new SteplensError('usage', `--shadow-confidence must be strictly between 0 and 1 (got '${values['shadow-confidence']}')`);
  const forecastFile = values.forecast ?? env.STEPLENS_FORECAST;
  const forecast = forecastFile !== undefined ? await readForecastFile(path.resolve(cwd, forecastFileArg(forecastFile))) : undefined;
  if (values['forecast-learn'] && forecast === undefined) throw new SteplensError('usage', '--forecast-learn retrains a forecast model: give --forecast FILE too');
  const learnEvery = positiveNumber('--forecast-learn-every', values['forecast-learn-every']) ?? 600;
  const learnScope = values['forecast-learn-scope'] ?? env.STEPLENS_FORECAST_LEARN_SCOPE;
  if (learnScope !== undefined && !(FORECAST_LEARN_SCOPES as readonly string[]).includes(learnScope))
    throw new SteplensError('usage', `--forecast-learn-scope must be ${FORECAST_LEARN_SCOPES.join(' or ')} (got '${learnScope}')`);
  if (values['forecast-learn-scope'] !== undefined && !values['forecast-learn']) throw new SteplensError('usage', '--forecast-learn-scope needs --forecast-learn');
  if (values['forecast-learn-fresh'] && !values['forecast-learn']) throw new SteplensError('usage', '--forecast-learn-fresh needs --forecast-learn');
  const configFile = values.config ?? env.STEPLENS_CONFIG;
  const scoring = configFile !== undefined ? await readConfigFile(path.resolve(cwd, configFile)) : undefined;
  const redis = redisSettings(values, env);
  const limits = parseLimits([...(env.STEPLENS_LIMITS ?? '').split(',').filter((x) => x.trim() !== ''), ...(values.limit ?? [])]);
  const calibration = values.calibration ?? env.STEPLENS_CALIBRATION;
  const perTenant = positiveNumber('--sessions-per-tenant', values['sessions-per-tenant'] ?? env.STEPLENS_SESSIONS_PER_TENANT);
  if (perTenant !== undefined && !Number.isInteger(perTenant)) throw new SteplensError('usage', `--sessions-per-tenant must be a whole number (got '${perTenant}')`);
  const scope = values['reference-scope'] ?? env.STEPLENS_REFERENCE_SCOPE;
  const allowOrigins = listOption(values['allow-origin'], env.STEPLENS_ALLOW_ORIGINS);
  const allowedHosts = listOption(values['allowed-host'], env.STEPLENS_ALLOWED_HOSTS);
  new SiteCheck(allowOrigins, allowedHosts, () => []); // a bad value is a usage error now, not when the app is built
  if (scope !== undefined && !(REFERENCE_SCOPES as readonly string[]).includes(scope)) throw new SteplensError('usage', `--reference-scope must be ${REFERENCE_SCOPES.join(' or ')} (got '${scope}')`);
  return {
    host: values.host ?? env.STEPLENS_HOST ?? '127.0.0.1',
    port,
    app: {
      dataDir,
      seedDirs: seeds,
      tokens,
      ...(allowOrigins.length > 0 ? { allowOrigins } : {}),
      ...(allowedHosts.length > 0 ? { allowedHosts } : {}),
      logLevel: level,
      ...(resume !== undefined ? { resumeWindowMs: resume * 1000 } : {}),
      ...(idle !== undefined ? { idleTimeoutMs: idle * 1000 } : {}),
      ...(values.learn ? { learnDefault: true } : {}),
      ...(scope !== undefined ? { referenceScope: scope as ReferenceScope } : {}),
      ...(set !== undefined ? (set.groups.length > 0 ? { policies: set, policy: set.fallback } : { policy: set.fallback }) : {}),
      ...(shadowOn ? { shadow: { ...(share !== undefined ? { share } : {}), ...(maxFalseStop !== undefined ? { maxFalseStop } : {}), ...(confidence !== undefined ? { confidence } : {}) } } : {}),
      ...(scoring !== undefined ? { config: scoring } : {}),
      ...(values['compress-texts'] || env.STEPLENS_COMPRESS_TEXTS === '1' ? { compressTexts: true } : {}),
      ...(forecast !== undefined ? { forecast } : {}),
      ...(values['forecast-learn']
        ? {
            forecastLearn: {
              intervalMs: learnEvery * 1000,
              dir: path.join(dataDir, 'forecasts'),
              ...(learnScope !== undefined ? { scope: learnScope as ForecastLearnScope } : {}),
              ...(values['forecast-learn-fresh'] ? { fresh: true } : {}),
            },
          }
        : {}),
      ...(redis !== undefined ? { redis } : {}),
      ...(calibration !== undefined ? { calibrationDir: path.resolve(cwd, calibration) } : {}),
      ...(Object.keys(limits).length > 0 || perTenant !== undefined ? { limits: { ...limits, ...(perTenant !== undefined ? { sessionsPerTenant: perTenant } : {}) } } : {}),
    },
  };
}
