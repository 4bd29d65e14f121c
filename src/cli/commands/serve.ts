/** `steplens serve`: runs the server until SIGTERM/SIGINT. */
import type { Command } from '../command.js';
import { SERVE_USAGE, serverConfig } from '../../server/config.js';
import { runServer } from '../../server/run.js';

const serve: Command = {
  name: 'serve',
  usage: SERVE_USAGE,
  async run(args, io) {
    const config = await serverConfig(args, io.env, io.cwd);
    await runServer(config);
    return 0;
  },
};

export default serve;
