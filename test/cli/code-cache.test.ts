/**
 * The bin's code cache (src/cli/code-cache.ts): a command file compiled with the code an earlier run wrote, never
 * with another file's code, never from a folder another user could have written, and a cache that cannot be
 * read or written changes nothing but the time.
 */
import { chmodSync, chownSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { defaultCacheDir, KEEP, loadCachedScript } from '../../src/cli/code-cache.js';

const work = mkdtempSync(path.join(os.tmpdir(), 'steplens-code-cache-test-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

let n = 0;
/** A fresh folder under the test's own. */
const fresh = (): string => path.join(work, `d${n++}`);

/** A CommonJS file whose exports say what it was given, and `version` (distinct files for distinct versions). */
function scriptFile(dir: string, version = 1, name = 'cmd.cjs'): string {
  mkdirSync(dir, { recursive: true });
  const file = path.join(dir, name);
  writeFileSync(
    file,
    `"use strict";
const p = require('node:path');
function strict() { return this === undefined; }
module.exports = { version: ${version}, file: __filename, dir: __dirname, base: p.basename(__filename), same: exports === module.exports, strict: strict() };
`,
  );
  return file;
}

/** The file's bytes in a fresh folder, under the same name. */
function copyOf(file: string): string {
  const dir = fresh();
  mkdirSync(dir);
  const copy = path.join(dir, path.basename(file));
  writeFileSync(copy, readFileSync(file));
  return copy;
}

const cacheFiles = (dir: string): string[] => (existsSync(dir) ? readdirSync(dir).filter((f) => f.endsWith('.v8cache')) : []);

describe('loadCachedScript', () => {
  it('runs a CommonJS file as Node does, writes its code once, and compiles the next load from it', () => {
    const file = scriptFile(fresh());
    const dir = fresh();
    const first = loadCachedScript(file, dir);
    expect(first.exports).toEqual({ version: 1, file, dir: path.dirname(file), base: 'cmd.cjs', same: true, strict: true });
    expect(first.state).toBe('cold');
    expect(cacheFiles(dir)).toEqual([]);
    expect(first.save()).toBe(true);
    expect(first.save()).toBe(false);
    expect(cacheFiles(dir)).toEqual([path.basename(first.cacheFile!)]);
    expect(path.basename(first.cacheFile!)).toMatch(/^cmd-[0-9a-f]{40}\.v8cache$/);
    if (process.platform !== 'win32') {
      expect(statSync(dir).mode & 0o777).toBe(0o700);
      expect(statSync(first.cacheFile!).mode & 0o777).toBe(0o600);
    }
    // The same bytes at another path (V8 keeps what it compiled in this process by source and file name: another
    // name makes it read the cached data).
    const second = loadCachedScript(copyOf(file), dir);
    expect(second.state).toBe('used');
    expect(second.exports).toMatchObject({ version: 1, base: 'cmd.cjs', same: true, strict: true });
    expect(second.save()).toBe(false);
  });

  it('never compiles a changed file with the code of the file it was; keeps the newest few of a command', () => {
    const src = fresh();
    const dir = fresh();
    for (let version = 1; version <= KEEP + 2; version++) {
      const loaded = loadCachedScript(scriptFile(src, version), dir);
      expect(loaded.state).toBe('cold');
      expect((loaded.exports as { version: number }).version).toBe(version);
      expect(loaded.save()).toBe(true);
    }
    expect(cacheFiles(dir)).toHaveLength(KEEP);
    // The newest is among those kept, and serves its file; another command's files are not pruned with these.
    const last = loadCachedScript(copyOf(path.join(src, 'cmd.cjs')), dir);
    expect(last.state).toBe('used');
    const other = loadCachedScript(scriptFile(src, 1, 'cmd-other.cjs'), dir);
    expect(other.save()).toBe(true);
    expect(cacheFiles(dir)).toHaveLength(KEEP + 1);
  });

  it('runs a .cjs file of its own that it requires through the cache too, once, and writes both', () => {
    const src = fresh();
    mkdirSync(src);
    writeFileSync(path.join(src, 'dep.cjs'), "exports.loads = (exports.loads ?? 0) + 1; exports.name = require('node:path').basename(__filename);\n");
    const main = path.join(src, 'main.cjs');
    writeFileSync(main, "module.exports = { dep: require('./dep.cjs'), again: require('./dep.cjs') };\n");
    const dir = fresh();
    const first = loadCachedScript(main, dir);
    const { dep, again } = first.exports as { dep: { loads: number; name: string }; again: unknown };
    expect(dep).toEqual({ loads: 1, name: 'dep.cjs' });
    expect(again).toBe(dep);
    expect([...first.required.keys()]).toEqual([path.join(src, 'dep.cjs')]);
    expect(first.required.get(path.join(src, 'dep.cjs'))!.state).toBe('cold');
    expect(first.save()).toBe(true);
    expect(cacheFiles(dir).sort()).toEqual([expect.stringMatching(/^dep-/), expect.stringMatching(/^main-/)]);
    // From copies (see above): both compiled from the cache.
    const copy = fresh();
    mkdirSync(copy);
    for (const f of ['dep.cjs', 'main.cjs']) writeFileSync(path.join(copy, f), readFileSync(path.join(src, f)));
    const second = loadCachedScript(path.join(copy, 'main.cjs'), dir);
    expect(second.state).toBe('used');
    expect(second.required.get(path.join(copy, 'dep.cjs'))!.state).toBe('used');
    expect(second.save()).toBe(false);
  });

  it('rewrites cached data that V8 refuses', () => {
    const file = scriptFile(fresh());
    const dir = fresh();
    const first = loadCachedScript(file, dir);
    first.save();
    writeFileSync(first.cacheFile!, 'not V8 code');
    const refused = loadCachedScript(copyOf(file), dir);
    expect(refused.state).toBe('rejected');
    expect((refused.exports as { version: number }).version).toBe(1);
    expect(refused.save()).toBe(true);
    expect(loadCachedScript(copyOf(file), dir).state).toBe('used');
  });

  it('works the same where the cache cannot be written: the folder under a file, or a folder it cannot make', () => {
    const file = scriptFile(fresh());
    const blocker = path.join(work, `file${n++}`);
    writeFileSync(blocker, '');
    for (const dir of [path.join(blocker, 'cache'), path.join(blocker, 'a', 'b')]) {
      const loaded = loadCachedScript(file, dir);
      expect(loaded.state).toBe('cold');
      expect((loaded.exports as { version: number }).version).toBe(1);
      expect(loaded.save()).toBe(false);
    }
  });

  it.skipIf(process.platform === 'win32')('neither reads nor writes a folder others can write to, a link, or a folder of another user', () => {
    const file = scriptFile(fresh());
    // A good cache made in a folder of our own, then offered through folders that are not to be trusted.
    const good = fresh();
    loadCachedScript(file, good).save();
    const [cached] = cacheFiles(good);
    const open = fresh();
    mkdirSync(open);
    chmodSync(open, 0o777);
    const link = fresh();
    symlinkSync(good, link);
    const offered = [open, link];
    if (process.getuid?.() === 0) {
      const others = fresh();
      mkdirSync(others, { mode: 0o700 });
      chownSync(others, 65534, 65534);
      offered.push(others);
    }
    for (const dir of offered) {
      if (dir !== link) writeFileSync(path.join(dir, cached!), readFileSync(path.join(good, cached!)));
      const loaded = loadCachedScript(file, dir);
      expect(loaded.state, dir).toBe('cold');
      expect(loaded.save(), dir).toBe(false);
    }
    // The folder it makes itself is its user's alone.
    const made = fresh();
    expect(loadCachedScript(file, made).save()).toBe(true);
    expect(statSync(made).mode & 0o077).toBe(0);
  });

  it('is off with NODE_DISABLE_COMPILE_CACHE, as Node 22+ is; else a folder of the user in the temp folder', () => {
    expect(defaultCacheDir({ NODE_DISABLE_COMPILE_CACHE: '1' })).toBeUndefined();
    const dir = defaultCacheDir({});
    expect(path.dirname(dir!)).toBe(os.tmpdir());
    expect(path.basename(dir!)).toMatch(process.getuid ? new RegExp(`^steplens-code-cache-${process.getuid()}$`) : /^steplens-code-cache$/);
    const loaded = loadCachedScript(scriptFile(fresh()), null);
    expect(loaded.state).toBe('off');
    expect(loaded.cacheFile).toBeUndefined();
    expect(loaded.save()).toBe(false);
  });
});
