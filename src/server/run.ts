/** Listening and graceful shutdown: what `server.ts` and `steplens serve` share. */
import type { FastifyInstance } from 'fastify';
import { buildApp } from './app.js';
import type { ServerConfig } from './config.js';
import { SteplensError } from '../errors.js';

const LISTEN_FAILURES: Record<string, string> = {
  EADDRINUSE: 'the address is already in use (another server on that port?)',
  EACCES: 'permission denied (ports below 1024 need privileges)',
  EADDRNOTAVAIL: 'no such local address',
  ENOTFOUND: 'unknown host name',
};

/** A listen failure the user can fix becomes a one-line error; anything else is rethrown. */
function listenError(error: unknown, config: ServerConfig): unknown {
  const code = (error as NodeJS.ErrnoException).code ?? '';
  const why = LISTEN_FAILURES[code];
  return why ? new SteplensError('usage', `cannot listen on ${config.host}:${config.port}: ${why}`) : error;
}

/**
 * Builds the app, listens, and resolves when a SIGTERM/SIGINT shutdown has
 * finished (sessions ended with their `final`, sockets closed, store flushed).
 */
export async function runServer(config: ServerConfig, onListening?: (address: string, app: FastifyInstance) => void): Promise<void> {
  const app = await buildApp(config.app);
  let address: string;
  try {
    address = await app.listen({ host: config.host, port: config.port });
  } catch (error) {
    await app.close();
    throw listenError(error, config);
  }
  app.log.info({ address, data: config.app.dataDir, seeds: config.app.seedDirs }, 'steplens server listening');
  onListening?.(address, app);
  await new Promise<void>((resolve) => {
    let stopping = false;
    // Kept, never removed: a signal that comes again during the shutdown or after it, before the process has
    // exited (Ctrl-C under `npm start` reaches the server from the terminal and again from npm), must not kill it
    // before the data lock is released and the sessions have their `final`; shutdownGraceMs bounds the shutdown.
    const stop = (signal: NodeJS.Signals): void => {
      if (stopping) return;
      stopping = true;
      app.log.info({ signal }, 'shutting down');
      app.close().then(resolve, (error: unknown) => {
        app.log.error({ err: error }, 'shutdown failed');
        resolve();
      });
    };
    process.on('SIGTERM', stop);
    process.on('SIGINT', stop);
  });
}
