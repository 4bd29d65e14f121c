/** The server entry point (`npm start`): flags and env in, listen, graceful shutdown. */
import { SteplensError } from '../errors.js';
import { applyYoungGeneration, youngGenerationChoice } from './young-generation.js';

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  // Before the server's modules load: loading them would already grow the young generation (young-generation.ts).
  const young = youngGenerationChoice(args, process.env);
  if (young.ok) applyYoungGeneration(young.value);
  const [{ SERVE_USAGE, serverConfig }, { runServer }] = await Promise.all([import('./config.js'), import('./run.js')]);
  if (args.includes('--help') || args.includes('-h')) {
    process.stdout.write(`${SERVE_USAGE}\n`);
    return;
  }
  await runServer(await serverConfig(args, process.env, process.cwd()));
}

main().catch((error: unknown) => {
  const message =
    error instanceof SteplensError || (error as NodeJS.ErrnoException).code?.startsWith?.('ERR_PARSE_ARGS') ? (error as Error).message : `internal error: ${(error as Error).stack ?? String(error)}`;
  process.stderr.write(`steplens server: ${message}\n`);
  process.exitCode = 1;
});
