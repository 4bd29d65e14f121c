/**
 * `steplens score FILE... --jsonl` over many real runs (the calibration set when ../shared/calibration is beside the
 * repository, else the corpus): one thread (`--jobs 1`) against `--jobs N` (default: one per core), alternating
 * round by round in one run; wall and CPU (user + system) per command, and whether both printed the same bytes.
 * No target: the gain is bounded by the cores, and by what one thread already spreads over them (V8's collector
 * runs beside it).
 *
 *   npm run build && node dist/bench/score-batch.js [--rounds 3] [--jobs N] [--files LIST] [--json FILE]
 *   (--files: a text file of paths, one a line; default: every file of the calibration manifest, else every corpus run)
 */
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { benchArgs, numberFlag } from './args.js';
import { findCorpus, loadCorpus, repoRoot } from './corpus.js';
import { machine, machineLine, writeResult } from './report.js';
import { childCpuSeconds, commandLine, fmt, median, printTable, rotatingRounds } from './timing.js';

const { values } = benchArgs({ options: { rounds: { type: 'string' }, jobs: { type: 'string' }, files: { type: 'string' }, json: { type: 'string' } } });
const ROOT = repoRoot();
const BIN = path.join(ROOT, 'dist/bin/steplens.js');
const rounds = numberFlag(values, 'rounds', 'positive integer', 3);
const jobs = String(numberFlag(values, 'jobs', 'positive integer', os.availableParallelism()));

/** The runs to score: a list file, the calibration manifest's files, or the corpus runs. */
function inputFiles(): { files: string[]; from: string } {
  if (values.files !== undefined)
    return {
      files: readFileSync(values.files, 'utf8')
        .split('\n')
        .filter((l) => l.trim() !== ''),
      from: values.files,
    };
  const corpus = findCorpus();
  const calibration = path.resolve(corpus, '../calibration');
  const manifest = path.join(calibration, 'manifest.jsonl');
  if (existsSync(manifest)) {
    const files = readFileSync(manifest, 'utf8')
      .split('\n')
      .filter((l) => l.trim() !== '')
      .map((l) => path.join(calibration, (JSON.parse(l) as { file: string }).file))
      .filter((f) => existsSync(f));
    return { files, from: manifest };
  }
  return { files: loadCorpus(corpus).trajectories.map((t) => path.join(corpus, t.file)), from: corpus };
}

const { files, from } = inputFiles();
const bytes = files.reduce((n, f) => n + statSync(f).size, 0);
const cases = [
  { name: 'score --jsonl --jobs 1', args: [BIN, 'score', '--jsonl', '--lenient', '--jobs', '1', ...files] },
  { name: `score --jsonl --jobs ${jobs}`, args: [BIN, 'score', '--jsonl', '--lenient', '--jobs', jobs, ...files] },
];

function once(args: string[]): { wall: number; cpu: number; digest: string } {
  const cpu0 = childCpuSeconds() ?? Number.NaN;
  const t0 = performance.now();
  const r = spawnSync(process.execPath, args, { cwd: ROOT, encoding: 'utf8', maxBuffer: 1 << 30 });
  const wall = (performance.now() - t0) / 1000;
  if (r.status !== 0) throw new Error(`score exited ${r.status ?? r.signal}: ${r.stderr.slice(0, 2000)}`);
  const digest = createHash('sha256').update(r.stdout).update('\0').update(r.stderr).digest('hex').slice(0, 16);
  return { wall, cpu: (childCpuSeconds() ?? Number.NaN) - cpu0, digest };
}

console.log(`command: ${commandLine(import.meta.url)}`);
console.log(machineLine());
console.log(
  `runs: ${files.length} files (${fmt(bytes / 1024 / 1024, 1)} MiB) from ${from}; ${rounds} rounds, the two commands alternating; load average before: ${os
    .loadavg()
    .map((x) => fmt(x, 2))
    .join(' ')}`,
);
const samples = cases.map(() => ({ wall: [] as number[], cpu: [] as number[], digests: new Set<string>() }));
for (const c of cases) once(c.args); // the page cache and Node's compile cache, for both
rotatingRounds(cases.length, rounds, (c) => {
  const s = once(cases[c]!.args);
  samples[c]!.wall.push(s.wall);
  samples[c]!.cpu.push(s.cpu);
  samples[c]!.digests.add(s.digest);
});
const walls = samples.map((s) => median(s.wall));
const same = new Set(samples.flatMap((s) => [...s.digests])).size === 1;
printTable(
  ['command', 'wall s (median)', 'wall s (each)', 'CPU s (median)', 'output digest'],
  cases.map((c, k) => [c.name, fmt(walls[k]!, 2), samples[k]!.wall.map((x) => x.toFixed(2)).join(' '), fmt(median(samples[k]!.cpu), 2), [...samples[k]!.digests].join(' ')]),
);
const ratio = walls[1]! / walls[0]!;
console.log(
  `--jobs ${jobs} / --jobs 1, median wall: ×${fmt(ratio, 3)}; the same stdout and stderr: ${same ? 'yes' : 'NO'}; load average after: ${os
    .loadavg()
    .map((x) => fmt(x, 2))
    .join(' ')}`,
);
if (!same) process.exitCode = 1;
writeResult(values.json, {
  bench: 'score-batch',
  command: commandLine(import.meta.url),
  machine: machine(),
  targets: [],
  figures: { files: files.length, mib: bytes / 1024 / 1024, jobs: Number(jobs), wall_s_one: walls[0]!, wall_s_jobs: walls[1]!, ratio, same_output: same ? 1 : 0 },
});
