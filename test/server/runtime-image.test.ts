/**
 * Reproduces the Dockerfile's runtime stage by hand (no container daemon here):
 * a clean directory with the package files, a production-only install, the
 * compiled dist, proto and data/example, then the image's start command (its
 * ENTRYPOINT, the bin since serve18, with `serve --host ... --data DIR`); /healthz
 * must answer and SIGTERM must stop it cleanly.
 */
import { execFile, spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { cp, mkdir, readdir, rm } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { tempDir } from './helpers.js';

const run = promisify(execFile);
const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
let dir: string | undefined;

/** The Dockerfile's ENTRYPOINT after `node`: the file the image runs. */
function imageEntry(): string[] {
  const line = /^ENTRYPOINT (\[.*\])$/m.exec(readFileSync(path.join(REPO, 'Dockerfile'), 'utf8'))?.[1];
  const entry = JSON.parse(line ?? '[]') as string[];
  expect(entry[0]).toBe('node');
  return entry.slice(1);
}

afterAll(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe('runtime image recipe', () => {
  it('installs production deps only, starts with the image command and answers /healthz', async () => {
    dir = await tempDir();
    const app = path.join(dir, 'app');
    await mkdir(app);
    for (const f of ['package.json', 'package-lock.json']) await cp(path.join(REPO, f), path.join(app, f));
    await run('npm', ['ci', '--omit=dev', '--prefer-offline', '--ignore-scripts', '--no-audit', '--no-fund'], { cwd: app, timeout: 120_000 });
    const installed = await readdir(path.join(app, 'node_modules'));
    expect(installed).toContain('fastify');
    expect(installed).not.toContain('vitest');
    expect(installed).not.toContain('typescript');
    // The build stage's outputs, taken from this checkout rather than made a second time (`npm test` built them):
    //  - `npm rebuild tree-sitter tree-sitter-bash tree-sitter-python`: the native bindings the checkout's own
    //    `npm ci` built with the same lockfile, Node and platform (a package whose prebuilt binary loads here has
    //    no build/ folder and loads its prebuilds/ one, which --ignore-scripts installed);
    //  - `npm run build`: dist (the image copies all of it: dist/bin, what it runs; dist/web, the view it serves).
    for (const pkg of ['tree-sitter', 'tree-sitter-bash', 'tree-sitter-python']) {
      const built = path.join(REPO, 'node_modules', pkg, 'build');
      if (existsSync(built)) await cp(built, path.join(app, 'node_modules', pkg, 'build'), { recursive: true });
    }
    for (const part of ['dist/bin', 'dist/src', 'dist/web']) await cp(path.join(REPO, part), path.join(app, part), { recursive: true });
    await cp(path.join(REPO, 'proto'), path.join(app, 'proto'), { recursive: true });
    await cp(path.join(REPO, 'data/example'), path.join(app, 'data/example'), { recursive: true });
    const data = path.join(dir, 'volume');

    const child = spawn(process.execPath, [...imageEntry(), 'serve', '--host', '127.0.0.1', '--port', '0', '--data', data], { cwd: app, env: { ...process.env, NODE_ENV: 'production' } });
    let output = '';
    const address = await new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`server did not start:\n${output}`)), 30_000);
      child.stdout.on('data', (chunk: Buffer) => {
        output += chunk.toString();
        const m = /"address":"(http:\/\/[^"]+)"/.exec(output);
        if (m?.[1]) {
          clearTimeout(timer);
          resolve(m[1]);
        }
      });
      child.stderr.on('data', (chunk: Buffer) => void (output += chunk.toString()));
      child.once('exit', (code) => reject(new Error(`server exited (${code}):\n${output}`)));
    });
    try {
      const health = await fetch(`${address}/healthz`);
      expect(health.status).toBe(200);
      const tasks = (await (await fetch(`${address}/v1/tasks`)).json()) as { tasks: unknown[] };
      expect(tasks.tasks.length).toBe((await readdir(path.join(REPO, 'data/example'))).filter((f) => f.endsWith('.json')).length);
      // The web view is served with production dependencies only.
      const page = await (await fetch(`${address}/`)).text();
      const script = /src="(\/assets\/[^"]+\.js)"/.exec(page)?.[1];
      expect(script).toBeDefined();
      expect((await fetch(`${address}${script}`)).status).toBe(200);
    } finally {
      const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
      child.kill('SIGTERM');
      expect(await exited).toBe(0);
    }
  }, 240_000);
});
