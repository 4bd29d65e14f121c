// Module hooks for dev-ts-loader.mjs: `./x.js` imported from a .ts file resolves to `./x.ts` when only that
// exists, and .ts files are transpiled (types stripped, nothing checked) with the project's `typescript`.
// Transpiled files are cached in node_modules/.cache/steplens-dev-ts (keyed by path and content), so
// only the first worker of a test run pays for loading the compiler.
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const CACHE = fileURLToPath(new URL('../../node_modules/.cache/steplens-dev-ts/', import.meta.url));
let ts;

export async function resolve(specifier, context, next) {
  if (specifier.startsWith('.') && specifier.endsWith('.js') && context.parentURL?.endsWith('.ts')) {
    const url = new URL(specifier, context.parentURL);
    if (!existsSync(fileURLToPath(url))) {
      const source = new URL(`${url.href.slice(0, -3)}.ts`);
      if (existsSync(fileURLToPath(source))) return { url: source.href, shortCircuit: true };
    }
  }
  return next(specifier, context);
}

async function transpile(file, text) {
  const cached = path.join(CACHE, `${createHash('sha256').update(file).update('\0').update(text).digest('hex')}.js`);
  try {
    return await readFile(cached, 'utf8');
  } catch {
    // not cached yet
  }
  ts ??= (await import('typescript')).default;
  const out = ts.transpileModule(text, {
    fileName: file,
    compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022, sourceMap: false },
  }).outputText;
  await mkdir(CACHE, { recursive: true });
  const temp = `${cached}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`;
  await writeFile(temp, out);
  await rename(temp, cached);
  return out;
}

export async function load(url, context, next) {
  if (!url.startsWith('file:') || !url.endsWith('.ts')) return next(url, context);
  const file = fileURLToPath(url);
  return { format: 'module', source: await transpile(file, await readFile(file, 'utf8')), shortCircuit: true };
}
