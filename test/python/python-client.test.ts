/**
 * Runs the Python client's own tests (clients/python/tests, unittest) with a python3 that has the
 * `websockets` package (see PYTHON); they start a real steplens server from dist/.
 */
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
/**
 * The interpreter: `STEPLENS_PYTHON` when set, else the first of the `python3` on PATH and Debian's that
 * imports websockets (a pyenv or venv python3 first on PATH often lacks it while Debian's has it).
 */
const CANDIDATES = process.env.STEPLENS_PYTHON ? [process.env.STEPLENS_PYTHON] : ['python3', '/usr/bin/python3'];
const probes = CANDIDATES.map((python) => ({ python, run: spawnSync(python, ['-c', 'import websockets; print(websockets.__version__)'], { encoding: 'utf8' }) }));
const found = probes.find((p) => !p.run.error && p.run.status === 0);
const PYTHON = found?.python ?? CANDIDATES[0]!;

describe('python client (clients/python)', () => {
  it('finds a python3 with the websockets package', () => {
    if (!found) {
      const tried = probes.map((p) => `${p.python}: ${p.run.error?.message ?? p.run.stderr.trim().split('\n').pop()}`).join('; ');
      throw new Error(`no python3 imports websockets (${tried}): install it (\`apt-get install python3-websockets\` or \`pip install websockets\`), or name an interpreter with STEPLENS_PYTHON`);
    }
    expect(found.run.stdout.trim()).toMatch(/^\d+\.\d+/);
  });

  it('passes its unittest suite against a real server', () => {
    const run = spawnSync(PYTHON, ['-m', 'unittest', 'discover', '-s', 'clients/python/tests', '-v'], {
      cwd: REPO,
      encoding: 'utf8',
      // A guard, not a figure: 142 s alone at load 10; 235 s ran out inside a full suite beside other sessions (stop 63).
      timeout: 420_000,
      env: { ...process.env, STEPLENS_URL: '' },
    });
    const output = `${run.stdout}\n${run.stderr}`;
    if (run.status !== 0) console.error(output);
    expect(run.error, output).toBeUndefined();
    expect(run.status, output).toBe(0);
    expect(output).toMatch(/^OK/m);
  }, 425_000);
});
