// Development only: lets a scoring worker thread run from the TypeScript sources (vitest runs src/, where
// score-worker.js does not exist). Registered with `--import` by score-pool.ts when the compiled worker is
// absent; a built or installed steplens never loads it. Needs the `typescript` dev dependency.
import { register } from 'node:module';

register('./dev-ts-hooks.mjs', import.meta.url);
