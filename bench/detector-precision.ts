/**
 * Precision of the repeat detectors (blind retry, Φcoh's retries, redundant
 * step, regression loop, cyclic pattern, and the early-stop signals of the
 * three repeat kinds) on the annotated real runs of
 * test/fixtures/detector-annotations.jsonl: per detector, before the fix of
 * issue 23 and after it, n and a two-sided 95 % Wilson interval, then per
 * source. With `--verify DIR`, re-runs today's detectors on the annotated runs
 * found under DIR (a folder holding `corpus/` and/or `calibration/`: the
 * team's `shared/`, or `test/.corpus` in a clone) and reports every item whose
 * firing differs from the annotation's `after` (on corpus runs, which are
 * annotated exhaustively, also every fired item the set lacks). No timing.
 *
 *   npm run build && node dist/bench/detector-precision.js [--verify DIR] [--json FILE]
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { parseLogText } from '../src/formats/index.js';
import { discover } from '../src/report/discover.js';
import { nodeReportFs } from '../src/report/node-fs.js';
import { benchArgs } from './args.js';
import { annotationKey, precisions, readAnnotations, type Annotation, type Precision } from './detectors/annotations.js';
import { firedItems, itemKey } from './detectors/items.js';
import { repoRoot } from './corpus.js';
import { machine, machineLine, writeResult } from './report.js';
import { commandLine, printTable } from './timing.js';

const { values: opts } = benchArgs({ options: { verify: { type: 'string' }, json: { type: 'string' }, file: { type: 'string' } } });
const file = opts.file ?? path.join(repoRoot(), 'test/fixtures/detector-annotations.jsonl');
const records = readAnnotations(file);
const command = commandLine(import.meta.url);
console.log(command);
console.log(machineLine());
console.log(`${records.length} annotations in ${path.relative(process.cwd(), file)} (${new Set(records.map((r) => r.run)).size} runs)`);

const pct = (x: number) => `${(100 * x).toFixed(1)} %`;
const cell = (p: Precision) => (p.n === 0 ? '-' : `${p.tp}/${p.n} = ${pct(p.tp / p.n)} [${pct(p.low)}, ${pct(p.high)}]`);

function table(rows: Precision[]): string[][] {
  const out: string[][] = [];
  for (let i = 0; i < rows.length; i += 2) {
    const [b, a] = [rows[i]!, rows[i + 1]!];
    if (b.n + a.n > 0) out.push([b.detector, cell(b), cell(a)]);
  }
  return out;
}

const all = precisions(records);
console.log('\nprecision (true positives / fired items annotated; 95 % Wilson interval), before and after the fix');
printTable(['detector', 'before', 'after'], table(all));
for (const source of [...new Set(records.map((r) => r.source))].sort()) {
  console.log(`\n${source}`);
  printTable(['detector', 'before', 'after'], table(precisions(records, source)));
}

/** Today's fired items on the annotated runs under `dir`, against the annotations' `after`. */
function verify(dir: string): { runs: number; mismatches: string[] } {
  const byRun = new Map<string, Annotation[]>();
  for (const r of records) byRun.set(r.run, [...(byRun.get(r.run) ?? []), r]);
  const mismatches: string[] = [];
  let runs = 0;
  const files = [...new Set([...byRun.keys()].map((id) => id.split('#')[0]!))].filter((f) => existsSync(path.join(dir, f)));
  for (const f of files) {
    const found = discover(nodeReportFs, [path.join(dir, f)], (text, source) => parseLogText(text, 'auto', source), {});
    for (const tr of found.trajectories) {
      const id = path.relative(dir, tr.id);
      const annotated = byRun.get(id);
      if (annotated === undefined) continue;
      runs++;
      const fired = new Set(firedItems(tr.steps).map(itemKey));
      for (const a of annotated) if (fired.has(annotationKey(a)) !== a.after) mismatches.push(`${id}: ${annotationKey(a)} ${a.after ? 'no longer fires' : 'fires again'}`);
      if (id.startsWith('corpus/')) {
        const known = new Set(annotated.map(annotationKey));
        for (const k of fired) if (!known.has(k)) mismatches.push(`${id}: ${k} fires and is not annotated`);
      }
    }
  }
  return { runs, mismatches };
}

const figures: Record<string, number | string> = {};
for (const p of all) if (p.n > 0) Object.assign(figures, { [`${p.detector}.${p.version}.precision`]: p.tp / p.n, [`${p.detector}.${p.version}.n`]: p.n, [`${p.detector}.${p.version}.low`]: p.low });
if (opts.verify !== undefined) {
  const { runs, mismatches } = verify(path.resolve(opts.verify));
  console.log(`\nverify: ${runs} annotated runs found under ${opts.verify}; ${mismatches.length} mismatches`);
  for (const m of mismatches) console.log(`  ${m}`);
  figures['verify.runs'] = runs;
  figures['verify.mismatches'] = mismatches.length;
  if (mismatches.length > 0) process.exitCode = 1;
}
writeResult(opts.json, { bench: 'detector-precision', command, machine: machine(), targets: [], figures });
