/**
 * V8's code cache for the bin's command files (issue 24 item 3). Compiling a command file (~0.5 MB) was the largest
 * single cost of a short `steplens score` after Node's own start, and Node 20 has no compile cache of its own
 * (`module.enableCompileCache`, 22.1+, covers the files Node's loaders read, not these). The bin's command files are
 * CommonJS bundles (dist/bin/commands/NAME.cjs, scripts/cli-bundle.mjs); main loads one with {@link loadBundledCommand}:
 * compiled as a `vm.Script` with the cached data of an earlier run when there is one, and, when there was none (or
 * V8 refused it: another V8, other flags), the code compiled by the end of the command's run written back, so the
 * next run also skips compiling the functions this one ran.
 *
 * Where: `os.tmpdir()/steplens-code-cache-UID` (per user), mode 0700. A folder that is not a directory of this
 * user's, writable by nobody else, is neither read nor written (cached data is code: another user's file must not
 * be run). Files are named by the SHA-1 of the command file's bytes, Node's version and its options (V8 refuses
 * data made under other flags), so a rebuilt or reinstalled file never meets the code of another; written to a
 * temporary name and renamed; the newest {@link KEEP} of each command are kept. Any failure (an unwritable or
 * missing temp folder, a full disk) leaves the command compiled as without a cache. `NODE_DISABLE_COMPILE_CACHE=1`
 * (Node's own switch) turns it off.
 */
import { lstatSync, mkdirSync, readdirSync, readFileSync, renameSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Command } from './command.js';

/** Cache files kept per command (builds of a checkout, Node versions), the newest first. */
export const KEEP = 4;
const SUFFIX = '.v8cache';

// Loaded when used: `--version` and `--help` load none of them.
const vm = () => process.getBuiltinModule('node:vm');
const crypto = () => process.getBuiltinModule('node:crypto');
const os = () => process.getBuiltinModule('node:os');

/** How a file was compiled: no cache (`off`), none yet (`cold`), from the cache (`used`), or the cache refused by V8 (`rejected`). */
export type CacheState = 'off' | 'cold' | 'used' | 'rejected';

export interface LoadedScript {
  /** The file's `module.exports`. */
  exports: unknown;
  state: CacheState;
  /** The cache file (read, or to be written); undefined when off. */
  cacheFile: string | undefined;
  /** The files of the bin's own it required through the cache so far, by path. */
  required: ReadonlyMap<string, LoadedScript>;
  /**
   * Writes the code compiled so far to the cache, unless it was used as it was, and that of the files it required
   * through the cache; true when it wrote any. At most once each.
   */
  save(): boolean;
}

/** The cache folder for `env` (the temp folder is `os.tmpdir()`'s), or undefined when turned off. */
export function defaultCacheDir(env: Readonly<Record<string, string | undefined>> = process.env): string | undefined {
  const off = env.NODE_DISABLE_COMPILE_CACHE;
  if (off !== undefined && off !== '' && off !== '0') return undefined;
  const uid = process.getuid?.();
  return path.join(os().tmpdir(), uid === undefined ? 'steplens-code-cache' : `steplens-code-cache-${uid}`);
}

/** True when `dir` is a directory (not a link) of this user's that no other user can write to. */
function trusted(dir: string): boolean {
  try {
    const st = lstatSync(dir);
    if (!st.isDirectory()) return false;
    // Windows: os.tmpdir() is the user's own, and modes mean little there.
    if (process.platform === 'win32') return true;
    return st.uid === process.getuid?.() && (st.mode & 0o022) === 0;
  } catch {
    return false;
  }
}

const WRAP_HEAD = '(function (exports, require, module, __filename, __dirname) {';
const WRAP_TAIL = '\n})';

/**
 * Runs the CommonJS file `file` (as Node's loader would: `exports`, `require`, `module`, `__filename`, `__dirname`),
 * compiled with the code cache in `dir` (`null`: none; default {@link defaultCacheDir}). A file of the bin's own that
 * it requires by a relative path ending in `.cjs` (dist/bin/zod.cjs) is run the same way, once, and its cache
 * written with this one's; anything else it requires is Node's.
 */
export function loadCachedScript(file: string, dir: string | null | undefined = defaultCacheDir()): LoadedScript {
  const bytes = readFileSync(file);
  let cacheFile: string | undefined;
  let cached: Buffer | undefined;
  if (dir !== null && dir !== undefined) {
    // V8 refuses data made under other flags: each set of Node options gets a file of its own, rather than runs
    // with and without (say) --cpu-prof each refusing and rewriting the other's.
    const runtime = [process.version, process.arch, ...process.execArgv, process.env.NODE_OPTIONS ?? ''].join('\0');
    const key = crypto().createHash('sha1').update(bytes).update(`\0${runtime}`).digest('hex');
    cacheFile = path.join(dir, `${path.basename(file).replace(/\.[^.]*$/, '')}-${key}${SUFFIX}`);
    if (trusted(dir)) {
      try {
        cached = readFileSync(cacheFile);
      } catch {
        cached = undefined;
      }
    }
  }
  const script = new (vm().Script)(`${WRAP_HEAD}${bytes.toString('utf8')}${WRAP_TAIL}`, { filename: file, ...(cached !== undefined ? { cachedData: cached } : {}) });
  const state: CacheState = cacheFile === undefined ? 'off' : cached === undefined ? 'cold' : script.cachedDataRejected === true ? 'rejected' : 'used';
  const required = new Map<string, LoadedScript>();
  const nodeRequire = createRequire(file);
  const scriptRequire = Object.assign((id: string): unknown => {
    if (!(id.startsWith('.') && id.endsWith('.cjs'))) return nodeRequire(id);
    const target = path.resolve(path.dirname(file), id);
    let loaded = required.get(target);
    if (loaded === undefined) required.set(target, (loaded = loadCachedScript(target, dir)));
    return loaded.exports;
  }, nodeRequire);
  const module = { exports: {} as unknown };
  const run = script.runInThisContext() as (this: unknown, ...args: unknown[]) => void;
  run.call(module.exports, module.exports, scriptRequire, module, file, path.dirname(file));
  let saved = false;
  return {
    exports: module.exports,
    state,
    cacheFile,
    required,
    save() {
      let wrote = false;
      for (const r of required.values()) wrote = r.save() || wrote;
      if (saved || cacheFile === undefined || dir === null || dir === undefined || state === 'used') return wrote;
      saved = true;
      return writeCache(dir, cacheFile, () => script.createCachedData()) || wrote;
    },
  };
}

/** Writes `data()` to `cacheFile` in `dir` (made if missing) by a rename, and keeps the newest {@link KEEP} of its command; false on any failure. */
function writeCache(dir: string, cacheFile: string, data: () => Buffer): boolean {
  const temp = `${cacheFile}.${process.pid}.tmp`;
  try {
    try {
      mkdirSync(dir, { mode: 0o700 });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') return false;
    }
    if (!trusted(dir)) return false;
    writeFileSync(temp, data(), { mode: 0o600 });
    renameSync(temp, cacheFile);
  } catch {
    try {
      unlinkSync(temp);
    } catch {
      // never written
    }
    return false;
  }
  prune(dir, cacheFile);
  return true;
}

/** Removes all but the newest {@link KEEP} cache files of `cacheFile`'s command (never `cacheFile` itself). */
function prune(dir: string, cacheFile: string): void {
  const name = path.basename(cacheFile);
  const prefix = name.slice(0, name.lastIndexOf('-') + 1);
  try {
    const others = readdirSync(dir)
      .filter((f) => f !== name && f.startsWith(prefix) && f.endsWith(SUFFIX) && /^[0-9a-f]{40}$/.test(f.slice(prefix.length, -SUFFIX.length)))
      .map((f) => ({ f, t: statSync(path.join(dir, f)).mtimeMs }))
      .sort((a, b) => b.t - a.t);
    for (const { f } of others.slice(KEEP - 1)) unlinkSync(path.join(dir, f));
  } catch {
    // another process pruned first, or the folder went: nothing to keep tidy
  }
}

/**
 * A bundled command file (dist/bin/commands/NAME.cjs) through the code cache: its command, whose run writes the
 * cache when it ends well (exit 0), so the cache holds the functions a whole run compiled. Not after a failed run
 * (a file that cannot be read, a usage error), which compiles little: the cache is written once, and every later
 * run would compile the rest again (a first `score` of a file it could not read left 0.4 MB of the 0.6 MB, and
 * each run after it ~16 ms more CPU). `NAME --help` never runs it.
 */
export function loadBundledCommand(file: URL | string): { default: Command } {
  const loaded = loadCachedScript(typeof file === 'string' ? file : fileURLToPath(file));
  const command = (loaded.exports as { default: Command }).default;
  return {
    default: {
      ...command,
      async run(args, io) {
        const code = await command.run(args, io);
        if (code === 0) loaded.save();
        return code;
      },
    },
  };
}
