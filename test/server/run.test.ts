import { createServer } from 'node:net';
import { expect, it } from 'vitest';
import { SteplensError } from '../../src/errors.js';
import { runServer } from '../../src/server/run.js';
import { removeDir, tempDir } from './helpers.js';

it('a port already in use is a one-line usage error, not a stack trace', async () => {
  const blocker = createServer();
  await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
  const port = (blocker.address() as { port: number }).port;
  const dir = await tempDir();
  try {
    const run = runServer({ host: '127.0.0.1', port, app: { dataDir: dir, logLevel: 'silent' } });
    await expect(run).rejects.toBeInstanceOf(SteplensError);
    await expect(run).rejects.toThrow(`cannot listen on 127.0.0.1:${port}: the address is already in use`);
  } finally {
    blocker.close();
    await removeDir(dir);
  }
});
