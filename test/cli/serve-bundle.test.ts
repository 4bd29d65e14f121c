/**
 * `steplens serve` from the bin is a bundled command file (scripts/cli-bundle.mjs) with its worker threads beside
 * it, no longer dist/src's ES modules (issue 24: ~1 s of a 1.2 s start was loading them). Run from a copy of the
 * package without dist/src, it must start, answer /healthz, serve the web view, list the bundled references and
 * score a run in its scoring worker exactly as the sources' app does.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { packageRoot } from '../../src/package-files.js';
import { ASTROID, readDoc, useInjectApp } from '../server/helpers.js';

const ROOT = packageRoot();
const EXAMPLES = path.join(ROOT, 'data', 'example');
const work = mkdtempSync(path.join(os.tmpdir(), 'steplens-serve-bundle-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** The package as shipped, less dist/src (tsc's output), node_modules linked. */
function packageWithoutDistSrc(): string {
  const pkg = path.join(work, 'pkg');
  for (const part of ['package.json', 'dist/bin', 'dist/web', 'data/example', 'data/example-prior.json', 'data/forecast.json'])
    cpSync(path.join(ROOT, part), path.join(pkg, part), { recursive: true });
  symlinkSync(path.join(ROOT, 'node_modules'), path.join(pkg, 'node_modules'), 'dir');
  return pkg;
}

/** Starts `serve` on a free port; resolves with its address once it logged it. The log lines are kept in `log`. */
function startServe(pkg: string, log: string[]): { child: ChildProcess; address: Promise<string> } {
  const data = path.join(work, 'data');
  mkdirSync(data, { recursive: true });
  const child = spawn(process.execPath, [path.join(pkg, 'dist/bin/steplens.js'), 'serve', '--host', '127.0.0.1', '--port', '0', '--data', data, '--log-level', 'info'], {
    cwd: work,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const address = new Promise<string>((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => reject(new Error(`serve did not start: ${out}`)), 60_000);
    const read = (chunk: Buffer): void => {
      out += chunk.toString();
      log.push(chunk.toString());
      const m = /"address":"(http:\/\/[^"]+)"/.exec(out);
      if (m?.[1]) {
        clearTimeout(timer);
        resolve(m[1]);
      }
    };
    child.stdout?.on('data', read);
    child.stderr?.on('data', read);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`serve exited ${code}: ${out}`));
    });
  });
  return { child, address };
}

/** The threads of process `pid` (Linux's /proc; undefined elsewhere). */
function threadsOf(pid: number | undefined): number | undefined {
  try {
    return Number(/^Threads:\s+(\d+)$/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1]);
  } catch {
    return undefined;
  }
}

const sources = useInjectApp({ seedDirs: [EXAMPLES] });

describe('the bundled serve', () => {
  it('starts without dist/src, answers /healthz, the page and the bundled tasks, and scores in its worker as the sources do', async () => {
    const log: string[] = [];
    const { child, address: started } = startServe(packageWithoutDistSrc(), log);
    try {
      const address = await started;
      expect((await fetch(`${address}/healthz`)).status).toBe(200);
      const page = await fetch(`${address}/`);
      expect(page.status).toBe(200);
      expect(await page.text()).toMatch(/<!doctype html>/i);
      const tasks = (await (await fetch(`${address}/v1/tasks`)).json()) as { tasks: Array<{ task: string }> };
      expect(tasks.tasks.map((t) => t.task).sort()).toEqual(
        readdirSync(EXAMPLES)
          .map((f) => f.replace(/\.json$/, ''))
          .sort(),
      );

      const threadsBefore = threadsOf(child.pid);
      const body = JSON.stringify({ task: ASTROID.task, trajectory: await readDoc(ASTROID.fail) });
      const scored = await fetch(`${address}/v1/score`, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
      const expected = await sources().inject({ method: 'POST', url: '/v1/score', headers: { 'content-type': 'application/json' }, payload: body });
      expect(scored.status).toBe(200);
      expect(expected.statusCode).toBe(200);
      expect(await scored.json()).toEqual(expected.json());
      // Scored by a worker thread (dist/bin/commands/score-worker.js, started for the first job and kept), not on
      // the main thread: the pool scores inline, silently, when it finds no worker file beside the command file.
      expect(log.join('')).not.toMatch(/worker could not be started/);
      if (threadsBefore !== undefined) expect(threadsOf(child.pid)).toBeGreaterThan(threadsBefore);
    } finally {
      if (child.exitCode === null && child.signalCode === null) {
        const exited = new Promise((resolve) => child.once('exit', resolve));
        child.kill('SIGTERM');
        await exited;
      }
    }
  }, 120_000);
});
