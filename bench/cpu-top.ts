/**
 * Summarises a V8 `.cpuprofile` (from `node --cpu-prof`): the functions with
 * the most self time, as a share of all samples.
 *
 *   node dist/bench/cpu-top.js FILE.cpuprofile [TOP=25]
 */
import { readFileSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { argsError, benchArgs, numberArg } from './args.js';
import { fmt, printTable } from './timing.js';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  hitCount?: number;
}

/** One row of the summary. */
export interface SelfTime {
  fn: string;
  where: string;
  share: number;
}

/** Self-time shares per function (merged over call sites), largest first. */
export function selfTimes(file: string): SelfTime[] {
  const profile = JSON.parse(readFileSync(file, 'utf8')) as { nodes: ProfileNode[]; samples?: number[] };
  const hits = new Map<number, number>();
  for (const s of profile.samples ?? []) hits.set(s, (hits.get(s) ?? 0) + 1);
  const byFn = new Map<string, SelfTime>();
  let total = 0;
  for (const n of profile.nodes) {
    const h = hits.get(n.id) ?? n.hitCount ?? 0;
    total += h;
    const fn = n.callFrame.functionName || '(anonymous)';
    const url = n.callFrame.url.replace(/^file:\/\//, '');
    const where = url === '' ? '' : `${path.relative(process.cwd(), url)}:${n.callFrame.lineNumber + 1}`;
    const key = `${fn} ${where}`;
    const row = byFn.get(key) ?? { fn, where, share: 0 };
    row.share += h;
    byFn.set(key, row);
  }
  return [...byFn.values()].map((r) => ({ ...r, share: total > 0 ? r.share / total : 0 })).sort((a, b) => b.share - a.share);
}

/** The newest `.cpuprofile` in `dir`, if any. */
export function newestProfile(dir: string): string | undefined {
  const files = readdirSync(dir)
    .filter((f) => f.endsWith('.cpuprofile'))
    .map((f) => path.join(dir, f));
  return files.sort((a, b) => statSync(b).mtimeMs - statSync(a).mtimeMs)[0];
}

/** The code area a row belongs to: `src/<dir>`, a package under node_modules, or `native` (builtins, writev, regexps). */
function area(r: SelfTime): string {
  if (r.fn.startsWith('(')) return r.fn;
  const src = /(?:^|\/)src\/([^/]+)\//.exec(r.where);
  if (src) return `src/${src[1] ?? ''}`;
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(r.where);
  if (pkg) return pkg[1] ?? '';
  return r.where.startsWith('node:') ? 'node internals' : 'native (builtins, regexps, writev, ...)';
}

/** Prints the `top` functions by self time, as a share of busy (non-idle) time, and the same grouped by code area. */
export function printSelfTimes(file: string, top = 25): void {
  const rows = selfTimes(file);
  const idle = rows.find((r) => r.fn === '(idle)')?.share ?? 0;
  const busy = rows.filter((r) => r.fn !== '(idle)').map((r) => ({ ...r, share: r.share / (1 - idle) }));
  console.log(`cpu profile ${file}: ${fmt(100 * (1 - idle), 1)} % busy; top ${top} functions by self time (% of busy time)`);
  printTable(
    ['function', 'self %', 'where'],
    busy.slice(0, top).map((r) => [r.fn.slice(0, 60), fmt(100 * r.share, 1), r.where]),
  );
  const areas = new Map<string, number>();
  for (const r of busy) areas.set(area(r), (areas.get(area(r)) ?? 0) + r.share);
  printTable(
    ['area', 'self %'],
    [...areas.entries()].sort((a, b) => b[1] - a[1]).map(([k, v]) => [k, fmt(100 * v, 1)]),
  );
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const [file, top, ...more] = benchArgs({ allowPositionals: true }).positionals;
  if (file === undefined || more.length > 0) argsError('give FILE.cpuprofile [TOP]');
  printSelfTimes(file, numberArg(top, 'TOP', 'positive integer', 25));
}
