/**
 * `npm run build` (scripts/build.mjs) builds only what is out of date, so `npm start` and `npm pack` right after
 * `npm ci` (which built everything) start at once. `npm test` builds before the tests, so here everything is
 * current: a second build must leave every output as it is and say so.
 */
import { spawnSync } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { packageRoot } from '../../src/package-files.js';

const ROOT = packageRoot();

/** Modification times of every file under `dir` (relative path -> mtimeMs). */
function mtimes(dir: string): Map<string, number> {
  const abs = path.join(ROOT, dir);
  return new Map(
    readdirSync(abs, { recursive: true, encoding: 'utf8' })
      .filter((f) => statSync(path.join(abs, f)).isFile())
      .map((f) => [f, statSync(path.join(abs, f)).mtimeMs]),
  );
}

describe('npm run build on a current checkout', () => {
  it('rebuilds nothing: dist/src, dist/bin and dist/web keep every file as it was', () => {
    const before = ['dist/src', 'dist/bin', 'dist/web'].map(mtimes);
    const run = spawnSync(process.execPath, [path.join(ROOT, 'scripts/build.mjs')], { cwd: ROOT, encoding: 'utf8', timeout: 120_000 });
    expect(run.status, run.stderr).toBe(0);
    expect(run.stdout).toContain('build: dist/bin/steplens.js is up to date');
    expect(run.stdout).toContain('build: dist/web is up to date');
    const after = ['dist/src', 'dist/bin', 'dist/web'].map(mtimes);
    after.forEach((files, i) => expect(files).toEqual(before[i]));
  }, 150_000);
});
