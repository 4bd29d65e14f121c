/**
 * The server's young generation (src/server/young-generation.ts): kept at V8's initial 1 MB semi-spaces by
 * default, so that scavenge pauses stay short with many sessions; `--young-generation default` (or the env)
 * leaves V8's growth; a node flag that sizes the semi-spaces wins. Each entry point is started as users
 * start it, and the size is read from its "listening" log line.
 */
import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { youngGenerationChoice, type YoungGenerationState } from '../../src/server/young-generation.js';
import { removeDir, tempDir } from './helpers.js';

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
let data: string;

beforeAll(async () => {
  data = await tempDir();
});
afterAll(async () => {
  await removeDir(data);
});

/** Starts `entry` on a free port, returns the young generation its listening line reports, and stops it. */
async function listening(entry: string[], env: NodeJS.ProcessEnv = {}): Promise<YoungGenerationState> {
  const base = { ...process.env };
  delete base.NODE_OPTIONS;
  delete base.STEPLENS_YOUNG_GENERATION;
  const child = spawn(process.execPath, [...entry, '--host', '127.0.0.1', '--port', '0', '--data', data, '--no-seed'], { cwd: REPO, env: { ...base, ...env } });
  let output = '';
  try {
    return await new Promise<YoungGenerationState>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no listening line:\n${output}`)), 30_000);
      child.stdout.on('data', (chunk: Buffer) => {
        output += chunk.toString();
        const line = output.split('\n').find((l) => l.includes('steplens server listening'));
        if (line === undefined) return;
        clearTimeout(timer);
        resolve((JSON.parse(line) as { youngGeneration: YoungGenerationState }).youngGeneration);
      });
      child.once('exit', (code) => reject(new Error(`exited with ${code}:\n${output}`)));
    });
  } finally {
    child.kill('SIGTERM');
  }
}

const BIN = ['dist/bin/steplens.js', 'serve'];
const NPM_START = ['dist/src/server/server.js'];

describe('young generation', () => {
  it('is kept small by `steplens serve` and `npm start` unless told otherwise', async () => {
    for (const entry of [BIN, NPM_START]) {
      const small = await listening(entry);
      expect(small, entry.join(' ')).toMatchObject({ choice: 'small', sizedBy: 'pinned' });
      // Both semi-spaces: V8's initial 1 MB each, where the loaded server would otherwise have grown them.
      expect(small.newSpaceMb, entry.join(' ')).toBeLessThanOrEqual(2);
    }
    const grown = await listening([...BIN, '--young-generation', 'default']);
    expect(grown).toMatchObject({ choice: 'default', sizedBy: 'v8' });
    expect(grown.newSpaceMb).toBeGreaterThan(2);
    expect(await listening(BIN, { STEPLENS_YOUNG_GENERATION: 'default' })).toMatchObject({ choice: 'default', sizedBy: 'v8' });
    const flag = await listening(BIN, { NODE_OPTIONS: '--max-semi-space-size=4' });
    expect(flag).toMatchObject({ choice: 'small', sizedBy: 'node-flag' });
    expect(flag.newSpaceMb).toBeGreaterThan(2);
  });

  it('takes the last flag, then the environment, and names a bad value', () => {
    expect(youngGenerationChoice([], {})).toEqual({ ok: true, value: 'small' });
    expect(youngGenerationChoice([], { STEPLENS_YOUNG_GENERATION: 'default' })).toEqual({ ok: true, value: 'default' });
    expect(youngGenerationChoice(['--young-generation=small'], { STEPLENS_YOUNG_GENERATION: 'default' })).toEqual({ ok: true, value: 'small' });
    expect(youngGenerationChoice(['--young-generation', 'default', '--young-generation', 'small'], {})).toEqual({ ok: true, value: 'small' });
    const bad = youngGenerationChoice(['--young-generation', 'tiny'], {});
    expect(bad.ok).toBe(false);
    if (!bad.ok) expect(bad.error.message).toBe("--young-generation must be 'small' or 'default' (got 'tiny')");
  });

  it('refuses a bad value at start with one line naming it', async () => {
    const child = spawn(process.execPath, [...BIN, '--young-generation', 'tiny', '--port', '0', '--data', data], { cwd: REPO });
    let stderr = '';
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
    expect(code).toBe(1);
    expect(stderr.trim()).toBe("steplens serve: --young-generation must be 'small' or 'default' (got 'tiny')");
  });
});
