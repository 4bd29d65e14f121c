/** Listening and graceful shutdown: what `server.ts` and `steplens serve` share. */
import type { FastifyInstance } from 'fastify';
import { buildApp } from './app.js';
import type { ServerConfig } from './config.js';

/**
 * Builds the app, listens, and resolves when a SIGTERM/SIGINT shutdown has
 * finished (sessions ended with their `final`, sockets closed, store flushed).
 */
export async function runServer(config: ServerConfig, onListening?: (address: string, app: FastifyInstance) => void): Promise<void> {
  const app = await buildApp(config.app);
  const address = await app.listen({ host: config.host, port: config.port });
  app.log.info({ address, data: config.app.dataDir, seeds: config.app.seedDirs }, 'steplens server listening');
  onListening?.(address, app);
  await new Promise<void>((resolve) => {
    let stopping = false;
    const stop = (signal: NodeJS.Signals): void => {
      if (stopping) return;
      stopping = true;
      app.log.info({ signal }, 'shutting down');
      app.close().then(resolve, (error: unknown) => {
        app.log.error({ err: error }, 'shutdown failed');
        resolve();
      });
    };
    process.once('SIGTERM', stop);
    process.once('SIGINT', stop);
  });
}
