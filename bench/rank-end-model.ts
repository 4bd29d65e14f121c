/**
 * `POST /v1/rank` with `"rankModel": "end"` (branch fix-rank30) against the same call with `"prefix"`: the CPU the end
 * scorer adds to a rank call (its feature tracker per step and the ECDF mapping), and the copy of the end model a
 * rank job now carries to the scoring worker (structured clone of the job's forecast, with and without `end`).
 * One process, scoring inline (no worker: the whole cost counts in process.cpuUsage), calls alternated A B B A.
 *
 *   node scripts/build.mjs && node dist/bench/rank-end-model.js [ROUNDS]
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { parseForecast } from '../src/core/forecast/model.js';
import { packageRoot } from '../src/package-files.js';
import { buildApp } from '../src/server/app.js';
import { ForecastHolder } from '../src/server/forecast-holder.js';
import { findCorpus } from './corpus.js';

const rounds = Number(process.argv[2] ?? 10);
const parsed = parseForecast(JSON.parse(gunzipSync(readFileSync(path.join(packageRoot(), 'test', 'fixtures', 'forecast-end', 'forecast-end.json.gz'))).toString('utf8')));
if (!parsed.ok) throw new Error(parsed.error);
const file = parsed.value;
const M = path.join(findCorpus(), 'SWE-agent__mini-swe-agent__pull-refs/output');
const runs = ['deepseek_chat_dev', 'deepseek_chat_dev_rerun', 'deepseek_lite_dev_noparallel'].map((n) => ({
  trajectory: JSON.parse(readFileSync(path.join(M, n, 'pylint-dev__astroid-1196', 'pylint-dev__astroid-1196.traj.json'), 'utf8')) as unknown,
}));

const cpuMs = (f: () => void): number => {
  const t = process.cpuUsage();
  f();
  const d = process.cpuUsage(t);
  return (d.user + d.system) / 1000;
};

// The copy a job makes of its forecast on its way to the worker (postMessage clones it as structuredClone does).
const holder = new ForecastHolder(file);
const clone: Record<'with' | 'without', number[]> = { with: [], without: [] };
for (let k = 0; k < rounds * 4; k++) {
  const withEnd = k % 4 === 0 || k % 4 === 3;
  const job = holder.jobForecast(undefined, withEnd);
  clone[withEnd ? 'with' : 'without'].push(cpuMs(() => structuredClone(job)));
}

const app = await buildApp({ logLevel: 'silent', scoringWorkers: 0, forecast: file });
await app.ready();
const post = async (rankModel: string): Promise<number> => {
  const t = process.cpuUsage();
  const res = await app.inject({ method: 'POST', url: '/v1/rank', headers: { 'content-type': 'application/json' }, payload: JSON.stringify({ runs, rankModel }) });
  const d = process.cpuUsage(t);
  if (res.statusCode !== 200) throw new Error(res.body);
  return (d.user + d.system) / 1000;
};
await post('end');
await post('prefix');
const call: Record<'end' | 'prefix', number[]> = { end: [], prefix: [] };
for (let k = 0; k < rounds; k++) for (const m of ['end', 'prefix', 'prefix', 'end'] as const) call[m].push(await post(m));
await app.close();

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const row = (name: string, xs: number[]) => `${name}: median ${median(xs).toFixed(2)} ms CPU, n ${xs.length}`;
console.log(JSON.stringify({ endModelJsonBytes: JSON.stringify(file.end).length, rounds }));
console.log(row('clone, job forecast with end', clone.with));
console.log(row('clone, job forecast without end', clone.without));
console.log(row('POST /v1/rank, 3 runs, rankModel end', call.end));
console.log(row('POST /v1/rank, 3 runs, rankModel prefix', call.prefix));
