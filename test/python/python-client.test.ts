/**
 * Runs the Python client's own tests (clients/python/tests, unittest) with Debian's
 * interpreter, which has python3-websockets; they start a real steplens server from dist/.
 */
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const PYTHON = '/usr/bin/python3';

describe('python client (clients/python)', () => {
  it('has the websockets package under /usr/bin/python3', () => {
    const probe = spawnSync(PYTHON, ['-c', 'import websockets; print(websockets.__version__)'], { encoding: 'utf8' });
    if (probe.error || probe.status !== 0) {
      throw new Error(`${PYTHON} cannot import websockets (${probe.error?.message ?? probe.stderr.trim()}): ` + 'install it with `apt-get install python3-websockets` (CI does)');
    }
    expect(probe.stdout.trim()).toMatch(/^\d+\.\d+/);
  });

  it('passes its unittest suite against a real server', () => {
    const run = spawnSync(PYTHON, ['-m', 'unittest', 'discover', '-s', 'clients/python/tests', '-v'], {
      cwd: REPO,
      encoding: 'utf8',
      timeout: 235_000,
      env: { ...process.env, STEPLENS_URL: '' },
    });
    const output = `${run.stdout}\n${run.stderr}`;
    if (run.status !== 0) console.error(output);
    expect(run.error, output).toBeUndefined();
    expect(run.status, output).toBe(0);
    expect(output).toMatch(/^OK/m);
  }, 240_000);
});
