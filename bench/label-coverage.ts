/**
 * Labeler coverage over the real corpus: every trajectory file SOURCES.md lists
 * (all instances of multi-instance files) is parsed and labelled; prints, per log
 * format, trajectories, steps, steps per stage and steps no rule knew (the
 * `unknown` fallback). Files that are not trajectories (reports) are skipped. No assertions.
 *
 *   npm run build && node dist/bench/label-coverage.js [CORPUS_DIR] [--json FILE]
 */
import { labelSteps } from '../src/core/state-builder.js';
import { defaultAnalyzers } from '../src/syntax/index.js';
import { argsError, benchArgs } from './args.js';
import { findCorpus, loadCorpus } from './corpus.js';
import { machine, takeJsonFlag, writeResult } from './report.js';
import { commandLine, printTable } from './timing.js';

/** A finer format name than the parser's: SWE-agent 1.1 vs 0.x, mini-swe-agent 1 vs 1.1, OpenHands log kinds. */
function variant(format: string, text: string): string {
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch {
    return format === 'openhands' ? 'openhands output.jsonl' : format;
  }
  const keys = doc !== null && typeof doc === 'object' && !Array.isArray(doc) ? Object.keys(doc) : [];
  const rec = doc as Record<string, unknown>;
  if (format === 'swe-agent') return keys.includes('replay_config') ? 'swe-agent 1.1' : 'swe-agent 0.x';
  if (format === 'mini-swe-agent') return rec.trajectory_format === 'mini-swe-agent-1.1' ? 'mini-swe-agent-1.1' : 'mini-swe-agent-1';
  if (format === 'openhands') return keys.includes('fncall_messages') ? 'openhands completions' : Array.isArray(doc) ? 'openhands events' : 'openhands output.jsonl';
  return format;
}

interface Row {
  trajectories: number;
  steps: number;
  E: number;
  I: number;
  V: number;
  O: number;
  unknown: number;
}

const jsonFile = takeJsonFlag();
const command = commandLine(import.meta.url);
const { positionals } = benchArgs({ allowPositionals: true });
if (positionals.length > 1) argsError(`one corpus folder at most, not ${positionals.length} arguments`);
const corpus = findCorpus(positionals[0]);
const rows = new Map<string, Row>();
const { trajectories, skipped } = loadCorpus(corpus);
for (const p of trajectories) {
  const key = variant(p.format, p.text);
  const row = rows.get(key) ?? { trajectories: 0, steps: 0, E: 0, I: 0, V: 0, O: 0, unknown: 0 };
  row.trajectories++;
  for (const { label } of labelSteps(p.steps, defaultAnalyzers())) {
    row.steps++;
    row[label.stage]++;
    if (label.unknown) row.unknown++;
  }
  rows.set(key, row);
}

const total: Row = { trajectories: 0, steps: 0, E: 0, I: 0, V: 0, O: 0, unknown: 0 };
const header = ['format', 'trajs', 'steps', 'E', 'I', 'V', 'O', 'unknown'];
const lines = [...rows.entries()]
  .sort(([a], [b]) => a.localeCompare(b))
  .map(([k, r]) => {
    for (const f of Object.keys(total) as Array<keyof Row>) total[f] += r[f];
    return [k, r.trajectories, r.steps, r.E, r.I, r.V, r.O, r.unknown].map(String);
  });
lines.push(['total', total.trajectories, total.steps, total.E, total.I, total.V, total.O, total.unknown].map(String));
console.log(`command: ${command}`);
printTable(header, lines);
const pct = (n: number) => `${((100 * n) / Math.max(1, total.steps)).toFixed(1)}%`;
console.log(`\nstage shares: E ${pct(total.E)}  I ${pct(total.I)}  V ${pct(total.V)}  O ${pct(total.O)}; fallback (unknown) ${pct(total.unknown)}; ${skipped} listed file(s) are not trajectories`);
writeResult(jsonFile, {
  bench: 'label-coverage',
  command,
  machine: machine(),
  targets: [],
  figures: { trajectories: total.trajectories, steps: total.steps, E: total.E, I: total.I, V: total.V, O: total.O, unknown: total.unknown, skipped_files: skipped },
});
