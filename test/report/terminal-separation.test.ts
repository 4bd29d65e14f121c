/**
 * audit21: the terminal's "Passing vs. failing" table printed within task and pooled AUROCs with no interval
 * (`pooled 0.9` for coh on the sample runs), though report.json, separation.csv and the headline line carry one: a
 * reader of the terminal saw a figure from 5 passing / 3 failing runs as a bare number. Now each has its lo and hi
 * columns there too, the same values as report.json's (`[-]` / `-` where the JSON has none).
 */
import { describe, expect, it } from 'vitest';
import type { CorpusReport } from '../../src/report/types.js';
import { cli } from '../cli/run-cli.js';

const RUNS = 'examples/runs';
const OUTCOMES = 'examples/runs/outcomes.csv';

/** The rows of the terminal table headed by `title`, each as header -> cell. */
function tableRows(stdout: string, title: string): Array<Record<string, string>> {
  const lines = stdout.split('\n');
  const at = lines.findIndex((l) => l.startsWith(title));
  const head = lines[at + 1]!.split(/ {2,}/);
  const rows: Array<Record<string, string>> = [];
  for (const line of lines.slice(at + 2)) {
    if (line.trim() === '') break;
    const cells = line.trim().split(/ {2,}/);
    rows.push(Object.fromEntries(head.map((h, i) => [h, cells[i]!])));
  }
  return rows;
}

const cell = (x: number | null | undefined) => (x === null || x === undefined ? '-' : String(Number(x.toPrecision(3))));

describe('report: the terminal separation table', () => {
  it('prints within task and pooled with their intervals, as report.json has them', async () => {
    const [text, json] = await Promise.all([cli('report', RUNS, '--outcomes', OUTCOMES), cli('report', RUNS, '--outcomes', OUTCOMES, '--json')]);
    expect(text.code).toBe(0);
    const doc = JSON.parse(json.stdout) as CorpusReport;
    const rows = tableRows(text.stdout, 'Passing vs. failing');
    expect(rows.length).toBeGreaterThan(0);
    let withInterval = 0;
    for (const row of rows) {
      const sep = doc.separation.find((s) => s.signal === row.signal && s.reference === 'all')!;
      expect(row.pooled).toBe(cell(sep.pooled.auroc));
      expect(row.pooled_lo).toBe(cell(sep.pooled.interval?.lo));
      expect(row.pooled_hi).toBe(cell(sep.pooled.interval?.hi));
      expect(row.within_task_lo).toBe(cell(sep.withinTask.interval?.lo));
      expect(row.within_task_hi).toBe(cell(sep.withinTask.interval?.hi));
      if (sep.pooled.interval !== null) withInterval++;
    }
    // The sample's 5 passing / 3 failing runs on 6 tasks give the pooled AUROCs an interval: it must show.
    expect(withInterval).toBeGreaterThan(0);
  });
});
