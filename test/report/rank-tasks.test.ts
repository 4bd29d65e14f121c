/**
 * The models table ranks sources by pass rate and mean quality; on the corpus the ranked sources ran
 * different tasks (no task is run by all of them), so a rank partly measures how hard each source's
 * tasks were. The report once ranked them without a word; it now warns, with each source's task count.
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli } from '../cli/run-cli.js';
import { CORPUS } from './corpus-fixture.js';

describe('report ranks of sources that ran different tasks', () => {
  it('warns, naming each ranked source with its number of tasks and the tasks all of them ran', async () => {
    const r = await cli('report', '--json', '--min-runs', '3', CORPUS);
    const doc = JSON.parse(r.stdout) as { models: Array<{ source: string; rankPass: number | null; rankQuality: number | null }>; warnings: string[] };
    const ranked = doc.models.filter((m) => m.rankPass !== null || m.rankQuality !== null);
    expect(ranked.length).toBeGreaterThan(2);
    const w = doc.warnings.filter((x) => x.includes('ranked sources ran different tasks'));
    expect(w).toHaveLength(1);
    expect(w[0]).toMatch(new RegExp(`^the ${ranked.length} ranked sources ran different tasks \\(.*; 0 of \\d+ tasks run by all of them\\)`));
    for (const m of ranked) expect(w[0]).toContain(`${m.source} `);
    expect(r.stderr).toContain(`warning: ${w[0]}\n`);
  }, 120_000);

  it('puts the caution under the models table (terminal, md, html), not only in the notes at the end', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'steplens-rank-tasks-'));
    const r = await cli('report', '--min-runs', '3', '--out', dir, CORPUS);
    const caution = /Caution: the \d+ ranked sources ran different tasks/;
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
    expect(doc.warnings.join('\n')).not.toContain('ranked sources ran different tasks');
  }, 120_000);
});
