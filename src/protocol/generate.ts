/** Writes `proto/*.schema.json` from the zod schemas: `node dist/src/protocol/generate.js [DIR]`. */
import { mkdir, readdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { protocolJsonSchemas, schemaText } from './json-schemas.js';

/** Regenerates every schema file in `dir`, removing stale ones; returns the file names written. */
export async function generateProtocolSchemas(dir: string): Promise<string[]> {
  await mkdir(dir, { recursive: true });
  const schemas = protocolJsonSchemas();
  for (const name of await readdir(dir)) {
    if (name.endsWith('.schema.json') && !(name in schemas)) await rm(path.join(dir, name));
  }
  for (const [name, schema] of Object.entries(schemas)) await writeFile(path.join(dir, name), schemaText(schema));
  return Object.keys(schemas);
}

/** The repository's `proto/` directory, from either `src/protocol` or `dist/src/protocol`. */
export function defaultProtoDir(): string {
  const here = path.dirname(fileURLToPath(import.meta.url));
  const up = here.includes(`${path.sep}dist${path.sep}`) ? '../../..' : '../..';
  return path.resolve(here, up, 'proto');
}

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  const dir = process.argv[2] ?? defaultProtoDir();
  generateProtocolSchemas(dir).then(
    (names) => process.stdout.write(`wrote ${names.length} schemas to ${dir}\n`),
    (error: unknown) => {
      process.stderr.write(`generate: ${(error as Error).message}\n`);
      process.exitCode = 1;
    },
  );
}
