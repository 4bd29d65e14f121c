/**
 * The files shipped inside the steplens package (bundled references, proto schemas, version), located one way
 * for the CLI and the server alike: walk up from this module to the package.json whose name is "steplens".
 * That holds in a checkout (src/ under tsx, dist/src/ built), in node_modules/steplens and in the Docker image.
 * A missing bundle is an error naming the path, never a silent empty prior.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { SteplensError } from './errors.js';

const PACKAGE_NAME = 'steplens';

function manifestAt(dir: string): { name?: unknown; version?: unknown } | undefined {
  const file = path.join(dir, 'package.json');
  if (!existsSync(file)) return undefined;
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as { name?: unknown; version?: unknown };
  } catch {
    return undefined;
  }
}

let root: string | undefined;

/** The directory holding steplens's own package.json. */
export function packageRoot(): string {
  if (root !== undefined) return root;
  const start = path.dirname(fileURLToPath(import.meta.url));
  for (let dir = start; ; dir = path.dirname(dir)) {
    if (manifestAt(dir)?.name === PACKAGE_NAME) return (root = dir);
    if (path.dirname(dir) === dir) throw new SteplensError('internal', `steplens's package.json not found above ${start}`);
  }
}

/** The package version (package.json `version`). */
export function packageVersion(): string {
  const version = manifestAt(packageRoot())?.version;
  return typeof version === 'string' ? version : '0.0.0';
}

/** A file or folder shipped with the package; throws naming the path when the package lacks it. */
export function packageFile(...parts: string[]): string {
  const file = path.join(packageRoot(), ...parts);
  if (!existsSync(file)) throw new SteplensError('internal', `the steplens package is incomplete: ${file} is missing`);
  return file;
}

/** The bundled reference set (one PTA JSON per task), the seed of `serve` and the prior of `score`. */
export function bundledReferencesDir(): string {
  return packageFile('data', 'example');
}

/**
 * The prior pooled from the bundled references, written beside them by `npm run build-examples`
 * (test/cli/bundled-prior.test.ts keeps it equal to pooling them). Its path, whether or not it exists.
 */
export function bundledPriorFile(): string {
  return path.join(packageRoot(), 'data', 'example-prior.json');
}

/** What `--forecast` takes to mean the forecaster shipped with the package. */
export const BUNDLED_FORECAST = 'bundled';

/**
 * The forecaster trained on the team's public runs with known outcomes (`scripts/train-bundled-forecast.sh`,
 * docs/forecast.md "The bundled forecaster"): what `--forecast bundled` loads.
 */
export function bundledForecastFile(): string {
  return packageFile('data', 'forecast.json');
}

/** A `--forecast` argument as a file: `bundled` is the shipped forecaster, anything else the path given. */
export function forecastFileArg(arg: string): string {
  return arg === BUNDLED_FORECAST ? bundledForecastFile() : arg;
}
