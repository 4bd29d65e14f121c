/**
 * The models table ranks sources by pass rate and mean quality; on the corpus the sources with enough runs ran
 * different tasks (no task is run by all of them), so a rank would partly measure how hard each source's tasks
 * were. The report once ranked them without a word, then ranked them with a caution; it now ranks none of them
 * (fewer than MIN_SHARED_TASKS tasks all of them ran: rank-shared.ts) and says why, with each source's task count.
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { MIN_SHARED_TASKS } from '../../src/report/rank-shared.js';
import { cli } from '../cli/run-cli.js';
import { CORPUS } from './corpus-fixture.js';

describe('report ranks of sources that ran different tasks', () => {
  it('ranks none of them, and says why, naming each source with its number of tasks and the tasks all of them ran', async () => {
    const r = await cli('report', '--json', '--min-runs', '3', CORPUS);
    type Row = { source: string; evaluated: number; rankPass: number | null; rankQuality: number | null; unrankedPass?: string; rankPassOn?: { sharedTasks: number } };
    const doc = JSON.parse(r.stdout) as { models: Row[]; warnings: string[] };
    expect(doc.models.filter((m) => m.rankPass !== null || m.rankQuality !== null)).toEqual([]);
    const compared = doc.models.filter((m) => m.rankPassOn !== undefined);
    expect(compared.length).toBeGreaterThan(2);
    for (const m of compared)
      expect(m.unrankedPass, m.source).toMatch(new RegExp(`^ran different tasks: 0 of \\d+ tasks run by all ${compared.length} sources with enough runs \\(a rank needs ${MIN_SHARED_TASKS}\\)$`));
    const w = doc.warnings.filter((x) => x.startsWith('No source is ranked by pass rate'));
    expect(w).toHaveLength(1);
    expect(w[0]).toMatch(new RegExp(`^No source is ranked by pass rate: the ${compared.length} sources with enough evaluated runs ran different tasks \\(.*; 0 of \\d+ tasks run by all of them\\)`));
    for (const m of compared) expect(w[0]).toContain(`${m.source} `);
    expect(r.stderr).toContain(`warning: ${w[0]}\n`);
  }, 120_000);

  it('puts the note under the models table (terminal, md, html), not only in the notes at the end', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'steplens-rank-tasks-'));
    const r = await cli('report', '--min-runs', '3', '--out', dir, CORPUS);
    const caution = /No source is ranked by pass rate: the \d+ sources with enough evaluated runs ran different tasks/;
    const between = (text: string, from: string, to: string): string => text.slice(text.indexOf(from), text.indexOf(to, text.indexOf(from)));
    expect(between(r.stdout, 'Models (agent + model)', 'Passing vs. failing')).toMatch(caution);
    const md = readFileSync(join(dir, 'report.md'), 'utf8');
    expect(between(md, '## Models (agent + model)', '\n## Passing vs. failing')).toMatch(caution);
    const html = readFileSync(join(dir, 'report.html'), 'utf8');
    expect(between(html, '<section id="t-models"', '</section>')).toMatch(caution);
  }, 120_000);

  it('says nothing when at most one source is ranked', async () => {
    const r = await cli('report', '--json', CORPUS);
    const doc = JSON.parse(r.stdout) as { models: Array<{ rankPass: number | null }>; warnings: string[] };
    // One source has >= 10 runs: a rank among one is no ranking, so none is ranked.
    expect(doc.models.filter((m) => m.rankPass !== null)).toHaveLength(0);
    expect(doc.warnings.join('\n')).not.toContain('ran different tasks');
  }, 120_000);
});
