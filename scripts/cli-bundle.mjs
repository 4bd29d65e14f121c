/**
 * The `steplens` bin, bundled by esbuild: dist/bin/steplens.js (src/cli/main.ts: arguments, `--version`,
 * `--help`, dispatch) and one file per command, dist/bin/commands/NAME.js, each holding everything that command
 * runs. A command loads one or two files instead of ~200 modules (zod alone is ~95), and `--version` loads
 * nothing but main's own small file. The files share no chunk: code both use (errors.ts, package-files.ts) is in
 * each, which main.ts allows for (`isSteplensError`).
 *
 * Left outside the bundle:
 *  - tree-sitter and its grammars: native addons, loaded with `require` from node_modules on first parse
 *    (src/syntax/grammars.ts);
 *  - `serve`: the server finds its worker and web assets beside its own modules and brings fastify, pino,
 *    ioredis and prom-client; main imports that command from dist/src (tsc's output) when it runs.
 * A package imported statically by a bundled file is loaded with that file, so the build fails on any outside
 * package a file imports at its top (only `node:` modules may be).
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import * as esbuild from 'esbuild';

export const CLI_DIR = 'dist/bin';
export const CLI_BUNDLE = `${CLI_DIR}/steplens.js`;

/** Native packages: never bundled, only `require`d where they are used. */
const NATIVE = ['tree-sitter', 'tree-sitter-bash', 'tree-sitter-python'];
/** Commands run from dist/src rather than bundled. */
const FROM_DIST = ['serve'];

/**
 * zod's locales: zod builds `z.locales` from every language's messages (a third of its code), of which only the
 * default, English, is used (steplens never calls `z.config`). The bundle gets English only; a use of another
 * locale fails the build (the check in bundleCli).
 */
const zodEnglishOnly = {
  name: 'zod-english-only',
  setup(build) {
    build.onResolve({ filter: /^\.\.\/locales\/index\.js$/ }, (args) =>
      args.importer.includes(`${path.sep}node_modules${path.sep}zod${path.sep}`) ? { path: path.join(path.dirname(args.importer), '../locales/index.js'), namespace: 'zod-english-only' } : undefined,
    );
    build.onLoad({ filter: /.*/, namespace: 'zod-english-only' }, (args) => ({ contents: "export { default as en } from './en.js';", resolveDir: path.dirname(args.path) }));
  },
};

/** registry.ts's `import('./commands/NAME.js')`: the bundled command file beside main, or dist/src's. */
const commandsApart = {
  name: 'commands-apart',
  setup(build) {
    build.onResolve({ filter: /^\.\/commands\/[a-z-]+\.js$/ }, (args) => {
      if (!args.importer.endsWith(path.join('src', 'cli', 'registry.ts'))) return undefined;
      const name = path.basename(args.path, '.js');
      return { path: FROM_DIST.includes(name) ? `../src/cli/commands/${name}.js` : args.path, external: true };
    });
  },
};

/** Builds the bin and its command files; returns the files they were built from (relative to `root`). */
export async function bundleCli(root) {
  const commands = readdirSync(path.join(root, 'src/cli/commands'))
    .filter((f) => f.endsWith('.ts') && !FROM_DIST.includes(path.basename(f, '.ts')))
    .map((f) => path.basename(f, '.ts'));
  const result = await esbuild.build({
    absWorkingDir: root,
    entryPoints: [{ in: 'src/cli/main.ts', out: 'steplens' }, ...commands.map((c) => ({ in: `src/cli/commands/${c}.ts`, out: `commands/${c}` }))],
    outdir: CLI_DIR,
    bundle: true,
    splitting: false,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    // jsonc-parser's `main` is a UMD build that requires its parts at run time; its `module` build bundles.
    mainFields: ['module', 'main'],
    external: NATIVE,
    plugins: [commandsApart, zodEnglishOnly],
    // Fewer bytes to read and compile at every start; names are kept (stack traces with STEPLENS_DEBUG stay readable).
    minifyWhitespace: true,
    minifySyntax: true,
    // Bundled CommonJS (ws and its optional addons) calls `require`, which an ES module lacks.
    banner: { js: "import { createRequire as __steplensRequire } from 'node:module';\nconst require = __steplensRequire(import.meta.url);" },
    legalComments: 'none',
    metafile: true,
    logLevel: 'warning',
  });
  const locales = Object.keys(result.metafile.inputs).filter((f) => /(^|\/)src\//.test(f) && /\bz\.(locales|config)\b/.test(readFileSync(path.join(root, f), 'utf8')));
  if (locales.length > 0) throw new Error(`${locales.join(', ')} use z.locales or z.config: the CLI bundle holds zod's English messages only (scripts/cli-bundle.mjs)`);
  for (const [file, output] of Object.entries(result.metafile.outputs)) {
    const eager = output.imports.filter((i) => i.external && i.kind === 'import-statement' && !i.path.startsWith('node:'));
    if (eager.length > 0) throw new Error(`${file} imports ${eager.map((i) => i.path).join(', ')} when it loads: load them with import() or require where used`);
  }
  return Object.keys(result.metafile.inputs);
}
