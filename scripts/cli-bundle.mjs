/**
 * The `steplens` bin, bundled by esbuild: dist/bin/steplens.js (src/cli/main.ts: arguments, `--version`,
 * `--help`, dispatch) and one file per command, dist/bin/commands/NAME.cjs, each holding everything that command
 * runs. A command loads one file instead of ~200 modules (zod alone is ~95), and `--version` loads nothing but
 * main's own small file. The files share no chunk: code both use (errors.ts, package-files.ts) is in each, which
 * main.ts allows for (`isSteplensError`).
 *
 * All are CommonJS (dist/bin/package.json says so for main, whose name the package's `bin` fixes): Node starts a
 * CommonJS main sooner than an ES module (its ESM loader costs ~10 ms of CPU on this project's VM, `--version`
 * included), and main runs a command file through V8's code cache (src/cli/code-cache.ts: Node 20 has no compile
 * cache, and compiling a command file was the largest cost of a short `score` after Node's own start). A `score
 * --jobs` worker starts its command file with Node's own loader. CommonJS has no `import.meta`: `import.meta.url`
 * is the file's URL, made from `__filename` by the banner. zod is a file of its own, dist/bin/zod.cjs, which a
 * command file requires (through the same code cache) when one of its schemas is first used, not when the file
 * loads (scripts/zod-on-first-use.mjs): a plain `score` validates nothing, and each command file is ~0.3 MB less to
 * read and take from the cache at every start.
 *
 * `serve` is a command file like the others, fastify, pino, prom-client and ioredis bundled in (issue 24: from
 * dist/src it loaded ~760 files, 336 of dist/src's ES modules, ~100 of zod's and ~320 CommonJS ones of fastify, pino,
 * prom-client...: 1.05 s of CPU to ready, 0.41 s bundled). Its worker threads have files of their own beside it,
 * dist/bin/commands/NAME.js (src/server/worker-entry.ts looks for `NAME.js` beside the module that asks, here the
 * command file: CommonJS, as dist/bin/package.json says), and it finds dist/web two folders up
 * (src/server/web-assets.ts), as from dist/src/server.
 * ioredis (`--redis` only) is bundled inside a module esbuild evaluates on first use (backend.ts's import()).
 *
 * Left outside the bundle: tree-sitter and its grammars, native addons loaded with `require` from node_modules on
 * first parse (src/syntax/grammars.ts).
 * A package imported statically by a bundled module is loaded with its file, so the build fails on any outside
 * package a module imports at its top (only `node:` modules may be).
 */
import { readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import * as esbuild from 'esbuild';

export const CLI_DIR = 'dist/bin';
export const CLI_BUNDLE = `${CLI_DIR}/steplens.js`;
/** What a build writes beside the command files: without dist/bin/package.json main would be read as an ES module. */
export const CLI_OUTPUTS = [CLI_BUNDLE, `${CLI_DIR}/package.json`];
/** Command files are CommonJS (code-cache.ts runs them as scripts; a `--jobs` worker starts one with Node's loader). */
const COMMAND_EXT = '.cjs';
/** zod, in a file of its own beside main, which the command files require when a schema is first used. */
const ZOD_FILE = 'zod.cjs';
/** Makes the `.js` files of dist/bin (main) CommonJS in a package of ES modules. */
const BIN_PACKAGE_JSON = '{ "type": "commonjs" }\n';

/** Native packages: never bundled, only `require`d where they are used (bufferutil: ws's native unmask, found beside its prebuilds; T105). */
const NATIVE = ['tree-sitter', 'tree-sitter-bash', 'tree-sitter-python', 'bufferutil'];
/** Commands run from dist/src rather than bundled (none now; registry.ts's plugin below still knows how). */
const FROM_DIST = [];
/** The server's worker threads (src/server/NAME.ts): a file each beside the command files, `.js` as worker-entry.ts looks for. */
const WORKERS = ['score-worker', 'retrain-worker'];

/**
 * zod's locales: zod builds `z.locales` from every language's messages (a third of its code), of which only the
 * default, English, is used (steplens never calls `z.config`). The bundle gets English only; a use of another
 * locale fails the build (the check in bundleCli).
 */
export const zodEnglishOnly = {
  name: 'zod-english-only',
  setup(build) {
    build.onResolve({ filter: /^\.\.\/locales\/index\.js$/ }, (args) =>
      args.importer.includes(`${path.sep}node_modules${path.sep}zod${path.sep}`) ? { path: path.join(path.dirname(args.importer), '../locales/index.js'), namespace: 'zod-english-only' } : undefined,
    );
    build.onLoad({ filter: /.*/, namespace: 'zod-english-only' }, (args) => ({ contents: "export { default as en } from './en.js';", resolveDir: path.dirname(args.path) }));
  },
};

/**
 * The `import { z } from 'zod'` of the modules under `sources`: scripts/zod-on-first-use.mjs, which loads zod when a
 * schema is first used. Its own `require('zod')` is `zodFile` when given (a file of its own, outside the bundle),
 * else zod's ES modules bundled in (the `import` condition, as the sources get), evaluated then.
 * (test/cli/zod-on-first-use.test.ts bundles a module of its own with it.)
 */
export function zodOnFirstUse(sources, zodFile) {
  const shim = fileURLToPath(new URL('./zod-on-first-use.mjs', import.meta.url));
  return {
    name: 'zod-on-first-use',
    setup(build) {
      build.onResolve({ filter: /^zod$/ }, (args) => {
        if (args.importer === shim) return zodFile !== undefined ? { path: zodFile, external: true } : build.resolve('zod', { kind: 'import-statement', resolveDir: args.resolveDir });
        return args.importer.startsWith(sources + path.sep) ? { path: shim } : undefined;
      });
    },
  };
}

/**
 * registry.ts's `import('./commands/NAME.js')`: in the bin, the command file beside main run through the code cache
 * (src/cli/code-cache.ts), or dist/src's module for a command run from there.
 */
function commandFiles(root) {
  return {
    name: 'command-files',
    setup(build) {
      build.onResolve({ filter: /^\.\/commands\/[a-z-]+\.js$/ }, (args) => {
        if (!args.importer.endsWith(path.join('src', 'cli', 'registry.ts'))) return undefined;
        const name = path.basename(args.path, '.js');
        return FROM_DIST.includes(name) ? { path: `../src/cli/commands/${name}.js`, external: true } : { path: name, namespace: 'command-file' };
      });
      build.onLoad({ filter: /.*/, namespace: 'command-file' }, (args) => ({
        contents: [
          `import { loadBundledCommand } from ${JSON.stringify(path.join(root, 'src/cli/code-cache.ts'))};`,
          `export default loadBundledCommand(new URL(${JSON.stringify(`./commands/${args.path}${COMMAND_EXT}`)}, import.meta.url)).default;`,
        ].join('\n'),
        resolveDir: root,
      }));
    },
  };
}

/** What both builds share. */
const COMMON = {
  bundle: true,
  splitting: false,
  platform: 'node',
  target: 'node20',
  // jsonc-parser's `main` is a UMD build that requires its parts at run time; its `module` build bundles.
  mainFields: ['module', 'main'],
  external: NATIVE,
  // Fewer bytes to read and compile at every start; names are kept (stack traces with STEPLENS_DEBUG stay readable).
  minifyWhitespace: true,
  minifySyntax: true,
  legalComments: 'none',
  metafile: true,
  logLevel: 'warning',
  format: 'cjs',
  // CommonJS has no import.meta: the file's URL, from the __filename that Node's loader (main, a `--jobs` worker)
  // and code-cache.ts give it. The banner comes before esbuild's "use strict", so it says it first: the sources
  // are ES modules, strict code.
  define: { 'import.meta.url': '__steplensUrl' },
  banner: { js: '"use strict";var __steplensUrl=require("node:url").pathToFileURL(__filename).href;' },
};

/** Builds the bin and its command files; returns the files they were built from (relative to `root`). */
export async function bundleCli(root) {
  const commands = readdirSync(path.join(root, 'src/cli/commands'))
    .filter((f) => f.endsWith('.ts') && !FROM_DIST.includes(path.basename(f, '.ts')))
    .map((f) => path.basename(f, '.ts'));
  // Files of an earlier build (command files of another name or format) would be packed with the new ones.
  rmSync(path.join(root, CLI_DIR), { recursive: true, force: true });
  const main = await esbuild.build({
    ...COMMON,
    absWorkingDir: root,
    entryPoints: [{ in: 'src/cli/main.ts', out: 'steplens' }],
    outdir: CLI_DIR,
    plugins: [commandFiles(root)],
  });
  writeFileSync(path.join(root, CLI_DIR, 'package.json'), BIN_PACKAGE_JSON);
  const commandBuild = await esbuild.build({
    ...COMMON,
    absWorkingDir: root,
    entryPoints: commands.map((c) => ({ in: `src/cli/commands/${c}.ts`, out: c })),
    outdir: `${CLI_DIR}/commands`,
    outExtension: { '.js': COMMAND_EXT },
    plugins: [zodOnFirstUse(path.join(root, 'src'), `../${ZOD_FILE}`)],
  });
  // The server's worker threads: started with Node's own loader (CommonJS: dist/bin/package.json), zod bundled in
  // (a worker has no code cache; it starts on the first scoring request, not with the server).
  const workerBuild = await esbuild.build({
    ...COMMON,
    absWorkingDir: root,
    entryPoints: WORKERS.map((w) => ({ in: `src/server/${w}.ts`, out: w })),
    outdir: `${CLI_DIR}/commands`,
    plugins: [zodEnglishOnly],
  });
  // zod, shared by the command files (required by zod-on-first-use.mjs when a schema is first used).
  const zodBuild = await esbuild.build({
    ...COMMON,
    absWorkingDir: root,
    stdin: { contents: "export { z } from 'zod';", resolveDir: root, sourcefile: 'zod-entry.js' },
    outfile: `${CLI_DIR}/${ZOD_FILE}`,
    plugins: [zodEnglishOnly],
  });
  const builds = [main, commandBuild, workerBuild, zodBuild];
  const inputs = Object.assign({}, ...builds.map((b) => b.metafile.inputs));
  const warnings = builds.flatMap((b) => b.warnings);
  if (warnings.length > 0) throw new Error(`the CLI bundle built with warnings: ${warnings.map((w) => w.text).join('; ')}`);
  const locales = Object.keys(inputs).filter((f) => /(^|\/)src\//.test(f) && /\bz\.(locales|config)\b/.test(readFileSync(path.join(root, f), 'utf8')));
  if (locales.length > 0) throw new Error(`${locales.join(', ')} use z.locales or z.config: the CLI bundle holds zod's English messages only (scripts/cli-bundle.mjs)`);
  // An outside package imported at the top of a bundled module is loaded with its file (in a CommonJS file, as a
  // `require` at its top): only node: modules may be.
  for (const [file, input] of Object.entries(inputs)) {
    const eager = input.imports.filter((i) => i.external && i.kind === 'import-statement' && !i.path.startsWith('node:') && !i.path.startsWith('../src/'));
    if (eager.length > 0) throw new Error(`${file} imports ${eager.map((i) => i.path).join(', ')} when it loads: load them with require where used`);
  }
  // code-cache.ts compiles a command file as a vm.Script, which has no loader for import(): a command file may hold
  // none. And none holds zod itself (it is in its own file, loaded on first use).
  for (const [file, output] of Object.entries(commandBuild.metafile.outputs)) {
    if (/\bimport\(/.test(readFileSync(path.join(root, file), 'utf8'))) throw new Error(`${file} holds an import(): command files are run as scripts (src/cli/code-cache.ts), load it with require`);
    const zod = Object.keys(output.inputs).filter((f) => f.includes('node_modules/zod/'));
    if (zod.length > 0) throw new Error(`${file} holds zod's ${zod[0]}: zod is ${CLI_DIR}/${ZOD_FILE} (import { z } from 'zod' in src/, which zod-on-first-use.mjs stands for)`);
  }
  return Object.keys(inputs);
}
