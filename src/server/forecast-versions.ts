/**
 * The version files `serve --forecast-learn` writes (`<dir>/forecast-v<N>.json`, a tenant's under
 * `<dir>/tenants/<tenant>/`): pruning to the newest, and putting them back in force at start.
 *
 * A restart restores, per directory, the newest file (by write time, as pruning orders them) that parses and was
 * learned from the very `--forecast` file now loaded: its `learnedFrom.digest` is the digest of that file as
 * parsed (core/forecast/fingerprint.ts). A version learned on another file is not put over a file the operator
 * just deployed, whatever their version numbers or dates say. A file that does not parse, names another base (or
 * none: written before versions recorded it), or another tenant than its directory's, is skipped with one warn
 * line, and so, in the `tenant` learning scope, is a shared version not recorded as learned in that scope (one
 * learned in the `shared` scope holds every tenant's outcomes: put back, one tenant's outcomes would move another's
 * pPass); an older one of the directory may then be restored. Startup never fails on them. Version numbers go on
 * after the highest on disk in each directory (each view numbers its own: forecast-holder.ts), so no file is
 * overwritten and a `forecastVersion` names one version of its view.
 */
import path from 'node:path';
import { readdir, rm, stat } from 'node:fs/promises';
import type { Logger } from 'pino';
import { parseForecast, type ForecastFile } from '../core/forecast/model.js';
import { readTextSync } from '../text-files.js';
import type { ForecastHolder } from './forecast-holder.js';

const VERSION_FILE = /^forecast-v(\d+)\.json$/;

/** The version files of `dir`, newest first: by when they were written, then by number (none if it does not exist). */
async function versionFiles(dir: string): Promise<Array<{ name: string; n: number }>> {
  const names = (await readdir(dir).catch(() => [] as string[])).filter((name) => VERSION_FILE.test(name));
  const versions = await Promise.all(names.map(async (name) => ({ name, n: Number(VERSION_FILE.exec(name)![1]), at: (await stat(path.join(dir, name)).catch(() => undefined))?.mtimeMs ?? 0 })));
  return versions.sort((a, b) => b.at - a.at || b.n - a.n);
}

/**
 * Deletes all but the newest `kept` version files of `dir` (0: none deleted), newest by when they were written, not by
 * number (files written before numbers went on across restarts may carry higher numbers than the newest).
 */
export async function pruneVersions(dir: string, kept: number): Promise<void> {
  if (kept <= 0) return;
  const versions = await versionFiles(dir);
  for (const v of versions.slice(kept)) await rm(path.join(dir, v.name), { force: true });
}

/** Why `text` (a version file of `tenant`'s directory, or the shared one) cannot be put back in force in the learning scope (`tenants`: `tenant`), or its file. */
function check(holder: ForecastHolder, text: string, tenant: string | undefined, tenants: boolean): { why: string } | { file: ForecastFile } {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    return { why: `not JSON: ${(error as Error).message}` };
  }
  const parsed = parseForecast(json);
  if (!parsed.ok) return { why: parsed.error };
  const from = parsed.value.learnedFrom;
  if (from === undefined) return { why: 'it does not record the forecast file it was learned from (written by an earlier steplens)' };
  if (from.digest !== holder.base.digest) {
    return { why: `learned from another forecast file (version ${from.version} of ${from.createdAt}) than the one loaded (version ${holder.base.version} of ${holder.base.createdAt})` };
  }
  if (from.tenant !== tenant) return { why: from.tenant === undefined ? "the shared models' version in a tenant's directory" : `tenant ${from.tenant}'s version` };
  if (tenants && tenant === undefined && from.scope !== 'tenant') {
    const learned = from.scope === 'shared' ? "learned in the shared learning scope, from every tenant's outcomes" : 'it does not record the learning scope it was learned in';
    return { why: `${learned}: not put in force in the tenant scope` };
  }
  return { file: parsed.value };
}

/** Restores the newest good version file of `dir` (see the file comment); `tenant`: whose directory it is. */
async function restoreDir(holder: ForecastHolder, dir: string, files: Array<{ name: string }>, tenant: string | undefined, tenants: boolean, log: Logger): Promise<void> {
  for (const { name } of files) {
    const file = path.join(dir, name);
    const text = readTextSync(file, { regularOnly: true });
    const got = text.ok ? check(holder, text.value, tenant, tenants) : { why: text.error.message };
    if ('why' in got) {
      log.warn({ file, tenant, why: got.why }, 'forecast version not restored');
      continue;
    }
    holder.restore(got.file, name, tenant);
    log.info({ file, tenant, version: got.file.version }, 'forecast version restored');
    return;
  }
}

/**
 * At start: numbers versions on after the highest on disk, and unless `fresh` puts back in force the newest good
 * version of the shared directory and, with `tenants` (the `tenant` learning scope), of each tenant's. Never throws.
 */
export async function restoreVersions(holder: ForecastHolder, options: { dir: string; tenants: boolean; fresh?: boolean }, log: Logger): Promise<void> {
  try {
    const tenantsDir = path.join(options.dir, 'tenants');
    const entries = await readdir(tenantsDir, { withFileTypes: true }).catch(() => []);
    const dirs: Array<{ dir: string; tenant?: string }> = [{ dir: options.dir }, ...entries.filter((e) => e.isDirectory()).map((e) => ({ dir: path.join(tenantsDir, e.name), tenant: e.name }))];
    const listed = await Promise.all(dirs.map(async (d) => ({ ...d, files: await versionFiles(d.dir) })));
    for (const d of listed) holder.continueAfter(Math.max(0, ...d.files.map((f) => f.n)), d.tenant);
    if (options.fresh === true) return;
    for (const d of listed) {
      if (d.files.length === 0) continue;
      // In the shared scope no tenant holds models of its own (none would be retrained).
      if (d.tenant !== undefined && !options.tenants) {
        log.info({ dir: d.dir, tenant: d.tenant }, "a tenant's forecast versions not restored: the learning scope is shared");
        continue;
      }
      await restoreDir(holder, d.dir, d.files, d.tenant, options.tenants, log);
    }
  } catch (error) {
    log.warn({ err: error, dir: options.dir }, 'forecast versions not restored');
  }
}
