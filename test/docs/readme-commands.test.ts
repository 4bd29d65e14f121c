/**
 * Every `npx steplens ...` command in the shell blocks of the README and docs/rank.md runs as written from the repository root and
 * exits 0 (a fresh clone has exactly these files). `replay` lines run against a server this test starts, with
 * the bundled references, in place of the README's 127.0.0.1:8787; `serve` lines and lines that use shell
 * variables of an earlier line (the packed-install walk-through, tested by test/install) are left out.
 */
import { execFile } from 'node:child_process';
import { readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bundledReferencesDir, packageRoot } from '../../src/package-files.js';
import { removeDir, startApp, tempDir, type Running } from '../server/helpers.js';

const ROOT = packageRoot();
// What `npx steplens` runs: the package bin (the CLI bundle).
const MAIN = path.join(ROOT, 'dist/bin/steplens.js');

/** The `npx steplens` command lines of a Markdown file's sh blocks (continuation lines joined). */
export function steplensCommands(markdown: string): string[] {
  const out: string[] = [];
  for (const block of markdown.matchAll(/```sh\n([\s\S]*?)```/g)) {
    const joined = (block[1] ?? '').replace(/\\\n\s*/g, ' ');
    for (const raw of joined.split('\n')) {
      const line = raw.replace(/\s+#.*$/, '').trim();
      if (line.startsWith('npx steplens ')) out.push(line);
    }
  }
  return out;
}

const commands = ['README.md', 'docs/rank.md'].flatMap((doc) => steplensCommands(readFileSync(path.join(ROOT, doc), 'utf8'))).filter((c) => !/^npx steplens serve\b/.test(c) && !c.includes('$'));

let dir: string;
let srv: Running;
beforeAll(async () => {
  dir = await tempDir();
  srv = await startApp({ dataDir: dir, seedDirs: [bundledReferencesDir()] });
});
afterAll(async () => {
  await srv.app.close();
  await removeDir(dir);
});

describe('README commands', () => {
  it('has commands to run', () => {
    expect(commands.length).toBeGreaterThanOrEqual(5);
    expect(commands.filter((c) => c.startsWith('npx steplens rank ')).length, 'docs/rank.md').toBeGreaterThanOrEqual(5);
  });

  it('shows only images the clone has, each under 250 KB', () => {
    const images = [...readFileSync(path.join(ROOT, 'README.md'), 'utf8').matchAll(/!\[[^\]]+\]\(([^)\s]+)\)/g)].map((m) => m[1]!);
    expect(images.length).toBeGreaterThanOrEqual(1);
    for (const image of images) expect(statSync(path.join(ROOT, image)).size, image).toBeLessThan(250 * 1024);
  });

  // Asynchronous: `replay` talks to the server that lives in this very process.
  it.each(commands.map((c) => [c]))(
    '%s',
    async (command) => {
      const shell = command.replace(/^npx steplens /, `node ${JSON.stringify(MAIN)} `).replace('http://127.0.0.1:8787', srv.url);
      const r = await promisify(execFile)('sh', ['-c', shell], { cwd: ROOT, encoding: 'utf8', timeout: 60_000, maxBuffer: 64 * 1024 * 1024 }).catch((error: { code?: number; stderr?: string }) => ({
        stdout: '',
        stderr: `exit ${error.code}: ${error.stderr}`,
      }));
      expect(r.stderr.startsWith('exit '), `${command}\n${r.stderr}`).toBe(false);
      expect(r.stdout.length).toBeGreaterThan(0);
    },
    // As long as execFile may take: a whole CLI run (calibrate --runs: 4 s of CPU, 16 s wall at load 16 on 2 cores).
    60_000,
  );
});
