/**
 * Best-of-N per reference kind. A source's best-of-N groups are each scored against one kind of reference (one task's
 * runs all meet one kind), but its pooled rates average picks by different composites: the report counts the groups
 * per kind in each selection row (`groupsByReference`), names such a source in a warning line, and `--by-reference`
 * gives each kind's best-of-N alone.
 *
 * Real runs only. The 15 SWE-agent runs of multi-swe-bench (5 models × 3 Java tasks) are named as one source by a
 * manifest (the corpus has no source with repeated runs of a task that has 3 passing runs), so each task is one
 * group: jackson-databind-3701 and -4486 have 3 passing runs (in-folder PTAs), jackson-core-1142 does not
 * (reference-free). Beside them, mini-swe-agent + deepseek-chat's repeated astroid runs: 2 reference-free groups.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { beforeAll, describe, expect, it } from 'vitest';
import { packageRoot } from '../../src/package-files.js';
import { parseManifest } from '../../src/report/manifest.js';
import { htmlReport } from '../../src/report/render/html.js';
import { markdownReport, terminalSummary } from '../../src/report/render/summary.js';
import { allTables } from '../../src/report/render/all-tables.js';
import type { CorpusReport, ReferenceKind, SelectionRow } from '../../src/report/types.js';
import { CORPUS_DIR } from '../fixtures/corpus.js';
import { corpusReport } from './corpus-fixture.js';

const JAVA = path.join(CORPUS_DIR, 'multi-swe-bench__experiments');
const MINI = path.join(CORPUS_DIR, 'SWE-agent__mini-swe-agent__pull-refs/output');
const JAVA_SOURCE = 'swe-agent + java-verified';
const MINI_SOURCE = 'mini-swe-agent 2.2.7 + deepseek/deepseek-chat';
const kinds = (inFolder: number, referenceFree: number): Record<ReferenceKind, number> => ({ 'in-folder': inFolder, external: 0, 'reference-free': referenceFree });
const WARNING =
  `warning: source ${JAVA_SOURCE}: its best-of-N by the composite score pools 3 groups scored against different kinds of reference ` +
  '(2 in-folder, 1 reference-free): each pick is within one kind, but the rates mix picks by different composites (--by-reference gives each kind alone)';

/** A manifest naming every Java run's model `java-verified` (agent and outcome still from the log and its evaluation). */
function javaManifest(): { file: string; text: string } {
  const verified = path.join(JAVA, 'evaluation/java/verified');
  const files = readdirSync(verified).flatMap((run) => readdirSync(path.join(verified, run, 'trajs')).map((f) => path.join(verified, run, 'trajs', f)));
  expect(files).toHaveLength(15);
  const file = path.join(mkdtempSync(path.join(tmpdir(), 'steplens-bon-mix-')), 'manifest.jsonl');
  return { file, text: files.map((f) => JSON.stringify({ file: path.relative(path.dirname(file), f), model: 'java-verified' })).join('\n') + '\n' };
}

const row = (rows: readonly SelectionRow[], source: string) => rows.find((s) => s.score === 'total' && s.source === source);

let pooled: CorpusReport;
let split: CorpusReport;
let manifest: { file: string; text: string };
beforeAll(() => {
  manifest = javaManifest();
  const naming = { manifest: parseManifest(manifest.text, manifest.file) };
  pooled = corpusReport([JAVA, MINI], { naming });
  split = corpusReport([JAVA, MINI], { naming, byReference: true });
}, 180_000);

describe('best-of-N groups of more than one reference kind', () => {
  it('each selection row counts its groups per kind', () => {
    expect(row(pooled.selection, JAVA_SOURCE)).toMatchObject({ groups: 3, informative: 3, groupsByReference: kinds(2, 1) });
    expect(row(pooled.selection, MINI_SOURCE)).toMatchObject({ groups: 2, groupsByReference: kinds(0, 2) });
    expect(row(pooled.selection, 'all')).toMatchObject({ groups: 5, groupsByReference: kinds(2, 3) });
    expect(pooled.byReference).toBeUndefined();
  });

  it('names the source in one warning line (terminal and report.md), and the pooled line says its kinds', () => {
    const lines = terminalSummary(pooled).split('\n');
    expect(lines.filter((l) => l.includes('best-of-N') && l.startsWith('warning:'))).toEqual([WARNING]);
    expect(markdownReport(pooled).split('\n')).toContain(`- ${WARNING}`);
    expect(lines.find((l) => l.startsWith('best-of-N by the composite score over 5 groups'))).toContain('(one source, one task, >= 2 runs; 19 runs; scored 2 in-folder, 3 reference-free)');
  });

  it('--by-reference gives each kind its own best-of-N, whose picks add up to the pooled ones', () => {
    const [inFolder, free] = [split.byReference!.find((b) => b.reference === 'in-folder')!, split.byReference!.find((b) => b.reference === 'reference-free')!];
    // In-folder: both Java groups' top pick passes (a tie at 75.5 of two passing runs on -4486), the whole gap.
    expect(row(inFolder.selection, JAVA_SOURCE)).toMatchObject({ groups: 2, runs: 9, top: { resolved: 1 + 1 }, random: { resolved: 3 / 5 + 3 / 4 }, gapClosed: 1, groupsByReference: kinds(2, 0) });
    expect(row(inFolder.selection, MINI_SOURCE)).toBeUndefined();
    // Reference-free: on jackson-core-1142 the top pick fails (83.5 against a pass at 82.7): none of the gap.
    expect(row(free.selection, JAVA_SOURCE)).toMatchObject({ groups: 1, runs: 4, top: { resolved: 0 }, random: { resolved: 2 / 4 }, gapClosed: -1, groupsByReference: kinds(0, 1) });
    expect(row(free.selection, MINI_SOURCE)).toMatchObject({ groups: 2, groupsByReference: kinds(0, 2) });
    for (const source of ['all', JAVA_SOURCE, MINI_SOURCE]) {
      const parts = [row(inFolder.selection, source), row(free.selection, source)].flatMap((s) => (s ? [s] : []));
      const whole = row(split.selection, source)!;
      expect(parts.reduce((n, s) => n + s.groups, 0)).toBe(whole.groups);
      expect(parts.reduce((n, s) => n + s.top.resolved!, 0)).toBeCloseTo(whole.top.resolved!, 12);
      expect(parts.reduce((n, s) => n + s.random.resolved, 0)).toBeCloseTo(whole.random.resolved, 12);
    }
  });

  it('every renderer shows the per-kind best-of-N: terminal lines, report.md / report.html / CSV tables', () => {
    const text = terminalSummary(split);
    expect(text).toContain('best-of-N by the composite score (scored in-folder) over 2 groups (one source, one task, >= 2 runs; 9 runs): top pick resolves 1.000 [-]');
    expect(text).toContain('best-of-N by the composite score (scored reference-free) over 3 groups');
    const names = allTables(split).map((t) => t.name);
    expect(names).toEqual(expect.arrayContaining(['selection', 'selection-in-folder', 'selection-reference-free']));
    const md = markdownReport(split);
    expect(md).toContain('## Best-of-N, scored in-folder: top-scored run vs. random pick vs. oracle');
    // report.md's best-of-N tables are report.html's (one cell a rate with its interval, groups per kind in one).
    expect(md).toMatch(/\| gap closed \| groups by reference \|/);
    expect(md).toMatch(new RegExp(`\\| composite \\| ${JAVA_SOURCE.replace(/[+]/g, '\\+')} \\| 3 \\| 13 \\| 3 \\|.* \\| 2 / 0 / 1 \\|`));
    expect(htmlReport(split, [])).toContain('Best-of-N, scored reference-free: top-scored run vs. random pick vs. oracle');
    // The warning stays: the headline's pooled line is still printed.
    expect(text.split('\n')).toContain(WARNING);
  });

  it('through the CLI: report.json carries them and --out writes one selection CSV per kind', async () => {
    writeFileSync(manifest.file, manifest.text);
    const out = mkdtempSync(path.join(tmpdir(), 'steplens-bon-mix-out-'));
    const main = path.join(packageRoot(), 'dist/bin/steplens.js'); // the bin, as a user runs it
    const run = await promisify(execFile)(process.execPath, [main, 'report', '--by-reference', '--manifest', manifest.file, '--out', out, JAVA, MINI], { encoding: 'utf8', maxBuffer: 64 << 20 });
    expect(run.stdout.split('\n')).toContain(WARNING);
    const doc = JSON.parse(readFileSync(path.join(out, 'report.json'), 'utf8')) as CorpusReport;
    expect(row(doc.selection, JAVA_SOURCE)!.groupsByReference).toEqual(kinds(2, 1));
    expect(doc.byReference!.map((b) => [b.reference, row(b.selection, 'all')!.groups])).toEqual([
      ['in-folder', 2],
      ['reference-free', 3],
    ]);
    const csv = readFileSync(path.join(out, 'selection-in-folder.csv'), 'utf8').trim().split('\n');
    expect(csv[0]!.split(',').slice(-3)).toEqual(['groups_in_folder', 'groups_external', 'groups_reference_free']);
    expect(readdirSync(out)).toContain('selection-reference-free.csv');
  }, 120_000);
});
