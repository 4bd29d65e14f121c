/** The server entry point of dist/src (the drills spawn it; `npm start`, Docker and the bin run the bundled `steplens serve`, the same config and runServer): flags and env in, listen, graceful shutdown. */
import { SteplensError, parseArgsMessage } from '../errors.js';
import { SERVE_USAGE, serverConfig } from './config.js';
import { runServer } from './run.js';

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  if (args.includes('--help') || args.includes('-h')) {
    process.stdout.write(`${SERVE_USAGE}\n`);
    return;
  }
  await runServer(await serverConfig(args, process.env, process.cwd()));
}

main().catch((error: unknown) => {
  const message = error instanceof SteplensError ? error.message : (parseArgsMessage(error, SERVE_USAGE) ?? `internal error: ${(error as Error).stack ?? String(error)}`);
  process.stderr.write(`steplens server: ${message}\n`);
  process.exitCode = 1;
});
