/**
 * Where a worker thread's entry module is: the compiled `NAME.js` beside this module (a build, an install), or,
 * running from the TypeScript sources (vitest runs src/), `NAME.ts` through the transpiling loader
 * (dev-ts-loader.mjs). Undefined when neither is there: the caller does the work on the main thread.
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export interface WorkerEntry {
  url: URL;
  execArgv: string[];
}

/** The entry of worker `name` (a module of this folder, without extension). */
export function workerEntry(name: string): WorkerEntry | undefined {
  const js = new URL(`./${name}.js`, import.meta.url);
  if (existsSync(fileURLToPath(js))) return { url: js, execArgv: [] };
  const ts = new URL(`./${name}.ts`, import.meta.url);
  const loader = new URL('./dev-ts-loader.mjs', import.meta.url);
  if (existsSync(fileURLToPath(ts)) && existsSync(fileURLToPath(loader))) return { url: ts, execArgv: ['--import', loader.href] };
  return undefined;
}
