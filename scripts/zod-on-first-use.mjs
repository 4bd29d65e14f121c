/* global require -- esbuild's: this file is only ever bundled into the CommonJS command files */
/**
 * `zod` as the bin's command files see it (scripts/cli-bundle.mjs resolves the sources' `import { z } from 'zod'`
 * here): zod's modules run on first use instead of when the file loads. A plain `score` never validates anything
 * (the settings files, forecast models and steplens-format logs it did not get are what zod is for), and
 * evaluating zod's ~95 modules at every start, with the garbage of its classes, cost ~6 % of its CPU (issue 24).
 *
 * The sources make every schema of theirs that such a command loads with `z.lazy(() => ...)` at their top, built on
 * first use (src/core/config.ts, policy.ts, policy-set.ts, forecast/model.ts, src/formats/step-schema.ts). Here
 * `z.lazy` does not load zod: it returns an empty object whose prototype traps the first read of any of its
 * properties (or `in`); that first read loads zod and makes the object, in place, the ZodLazy that `z.lazy` would
 * have returned (zod's own constructor run on it, its prototype ZodLazy's), then answers. From then on it is that
 * schema, the same object: zod keeps schemas by identity (JSON Schema's `seen`, registries), so a stand-in that
 * only forwarded to another object would not do. Any other `z.NAME` loads zod and is zod's own.
 */

let zod;
/**
 * The real `z`, loaded here and only here: in the bin this is dist/bin/zod.cjs (cli-bundle.mjs), through the code
 * cache (src/cli/code-cache.ts); bundled in, esbuild makes it the first evaluation of zod's ES modules.
 */
// eslint-disable-next-line @typescript-eslint/no-require-imports -- an import would be evaluated with the file
const real = () => (zod ??= require('zod').z);

/** `z.lazy(getter)`, made on the first read of one of its properties. */
function lazy(getter) {
  const schema = {};
  let made = false;
  const make = () => {
    if (made) return;
    made = true;
    const { ZodLazy } = real();
    // What `new ZodLazy({ type: 'lazy', getter })` (zod's `lazy`) does, with this object as the new one.
    Object.setPrototypeOf(schema, ZodLazy.prototype);
    ZodLazy.call(schema, { type: 'lazy', getter });
  };
  const firstRead = new Proxy(Object.create(null), {
    get: (_, key) => (make(), Reflect.get(schema, key)),
    has: (_, key) => (make(), Reflect.has(schema, key)),
    set: (_, key, value) => (make(), Reflect.set(schema, key, value)),
  });
  Object.setPrototypeOf(schema, firstRead);
  return schema;
}

export const z = new Proxy({}, { get: (_, key) => (key === 'lazy' ? lazy : real()[key]), has: (_, key) => key in real() });
