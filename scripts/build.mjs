#!/usr/bin/env node
/**
 * `npm run build`: builds what is out of date, and nothing else, so `npm start` and `npm pack` right after
 * `npm ci` start at once. Three outputs, each with its own up-to-date check:
 *
 *  1. dist/src, dist/bench (JavaScript + types): `tsc -b tsconfig.build.json`, which compares the inputs with
 *     its outputs and its build info itself.
 *  2. dist/bin, the `steplens` bin: the CLI bundled by esbuild, a file per command (see cli-bundle.mjs).
 *  3. dist/web, the web view: `vite build`.
 *
 * 2 and 3 are rebuilt when a file they were built from changed: each build records the files it read (esbuild's
 * metafile, vite's module graph) with their SHA-256 in dist/.build/NAME.json, with those of these scripts and
 * of the lockfile (which stands for everything in node_modules).
 *
 *   node scripts/build.mjs [--force] [--only tsc,cli,web]
 */
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { performance } from 'node:perf_hooks';
import { bundleCli, CLI_BUNDLE, CLI_OUTPUTS } from './cli-bundle.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const STAMPS = path.join(ROOT, 'dist', '.build');
const STEPS = ['tsc', 'cli', 'web'];

const { values } = parseArgs({ options: { force: { type: 'boolean', default: false }, only: { type: 'string' } } });
const only = values.only?.split(',') ?? STEPS;
for (const step of only) if (!STEPS.includes(step)) throw new Error(`build: unknown step '${step}' (known: ${STEPS.join(', ')})`);

const sha256 = (file) => createHash('sha256').update(readFileSync(file)).digest('hex');

/** Inputs of every output: the lockfile (for node_modules) and the build's own recipe. */
const ALWAYS = ['package-lock.json', 'scripts/build.mjs', 'scripts/cli-bundle.mjs'];

/** Hashes of the repository files among `files` (absolute or relative to ROOT), plus those of ALWAYS. */
function fingerprint(files) {
  const out = Object.fromEntries(ALWAYS.map((f) => [f, sha256(path.join(ROOT, f))]));
  for (const file of files) {
    const rel = path.relative(ROOT, path.resolve(ROOT, file));
    if (rel.startsWith('..') || rel.split(path.sep).includes('node_modules') || !existsSync(path.join(ROOT, rel))) continue;
    out[rel.split(path.sep).join('/')] = sha256(path.join(ROOT, rel));
  }
  return out;
}

/** True when `outputs` exist and the files recorded by the last build of `name` are as they were. */
function upToDate(name, outputs) {
  const stamp = path.join(STAMPS, `${name}.json`);
  if (values.force || !existsSync(stamp) || !outputs.every((o) => existsSync(path.join(ROOT, o)))) return false;
  const recorded = JSON.parse(readFileSync(stamp, 'utf8'));
  const files = Object.keys(recorded);
  if (!files.every((f) => existsSync(path.join(ROOT, f)))) return false;
  const now = fingerprint(files);
  return [...files, ...ALWAYS].every((f) => recorded[f] === now[f]);
}

function record(name, files) {
  mkdirSync(STAMPS, { recursive: true });
  writeFileSync(path.join(STAMPS, `${name}.json`), `${JSON.stringify(fingerprint(files), null, 1)}\n`);
}

function timed(label, skipped, run, done = 'built') {
  if (skipped) return console.log(`build: ${label} is up to date`);
  const t0 = performance.now();
  return Promise.resolve(run()).then(() => console.log(`build: ${label} ${done} in ${((performance.now() - t0) / 1000).toFixed(1)} s`));
}

if (only.includes('tsc')) {
  // tsc -b decides by itself; --force rebuilds everything.
  await timed(
    'dist/src',
    false,
    () => {
      const tsc = spawnSync(process.execPath, [path.join(ROOT, 'node_modules/typescript/bin/tsc'), '-b', 'tsconfig.build.json', ...(values.force ? ['--force'] : [])], {
        cwd: ROOT,
        stdio: 'inherit',
      });
      if (tsc.status !== 0) process.exit(tsc.status ?? 1);
    },
    'built or found current by tsc -b',
  );
}

if (only.includes('cli')) {
  await timed(CLI_BUNDLE, upToDate('cli', CLI_OUTPUTS), async () => {
    rmSync(path.join(STAMPS, 'cli.json'), { force: true });
    record('cli', await bundleCli(ROOT));
  });
}

if (only.includes('web')) {
  await timed('dist/web', upToDate('web', ['dist/web/index.html']), async () => {
    rmSync(path.join(STAMPS, 'web.json'), { force: true });
    const { build } = await import('vite');
    const read = new Set();
    // Records every module vite read (the view's sources, what they import from src/, index.html).
    const recorder = {
      name: 'steplens-record-inputs',
      buildEnd() {
        for (const id of this.getModuleIds()) read.add(id.split('?')[0]);
      },
    };
    await build({ configFile: path.join(ROOT, 'web/vite.config.ts'), plugins: [recorder] });
    record('web', [...read, 'web/vite.config.ts', 'web/index.html', ...listFiles('web/public')]);
  });
}

/** Files under `dir` (relative to ROOT), recursively. */
function listFiles(dir) {
  const abs = path.join(ROOT, dir);
  if (!existsSync(abs)) return [];
  return readdirRecursive(abs).map((f) => path.join(dir, f));
}

function readdirRecursive(abs) {
  return readdirSync(abs, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => path.relative(abs, path.join(e.parentPath ?? e.path, e.name)));
}
