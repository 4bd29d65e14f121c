/** Locating files shipped with the package (the bundled example references). */
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The directory holding steplens's package.json, found by walking up from this module. */
export function packageRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    if (existsSync(join(dir, 'package.json')) && existsSync(join(dir, 'src'))) return dir;
    const parent = dirname(dir);
    if (parent === dir) return process.cwd();
    dir = parent;
  }
}

/** The bundled example reference set (PTA JSON files, one per task). */
export function exampleReferencesDir(): string {
  return join(packageRoot(), 'data', 'example');
}
