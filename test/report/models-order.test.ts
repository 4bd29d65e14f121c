/**
 * Audit: the models table sorted unranked sources by their pass rate, so sources of one run (100.0 % [20.7, 100.0],
 * n = 1) led `report` on the corpus, a ranking the rank column (`-`) denies. Ranked sources come first, by rank; the
 * rest by evaluated runs, scored runs (most first), then name; the line under the table says so.
 */
import { describe, expect, it } from 'vitest';
import { MODELS_ORDER } from '../../src/report/models.js';
import type { CorpusReport } from '../../src/report/types.js';
import { cli, CORPUS } from '../cli/run-cli.js';

describe("the models table's order", () => {
  it('puts no unranked source before another by its pass rate, and says the order under the table', async () => {
    const r = await cli('report', '--json', CORPUS);
    expect(r.code).toBe(0);
    const doc = JSON.parse(r.stdout) as CorpusReport;
    const models = doc.models;
    expect(models.every((m) => m.rankPass === null)).toBe(true);
    // Old order: pass rate first, so a 1-run source at 100 % stood above the 12-run one.
    expect(models[0]!.evaluated).toBe(Math.max(...models.map((m) => m.evaluated)));
    for (let i = 1; i < models.length; i++) {
      const [a, b] = [models[i - 1]!, models[i]!];
      expect(a.evaluated > b.evaluated || (a.evaluated === b.evaluated && a.scored >= b.scored), `${a.source} before ${b.source}`).toBe(true);
    }
    const text = await cli('report', CORPUS);
    expect(text.stdout).toContain(`\n${MODELS_ORDER}\n`);
  }, 120_000);
});
