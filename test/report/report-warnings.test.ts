/**
 * Every warning `report` prints (terminal headline, under the models table, stderr) is in report.json's `warnings`,
 * and report.json has no other: it once held 1 where the terminal printed 5 (the per-source reference-kind and
 * best-of-N warnings and the manifest's were missing).
 */
import { mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli } from '../cli/run-cli.js';
import { CORPUS_DIR } from '../fixtures/corpus.js';

const JAVA = path.join(CORPUS_DIR, 'multi-swe-bench__experiments');
const MINI = path.join(CORPUS_DIR, 'SWE-agent__mini-swe-agent__pull-refs/output');

/** A manifest naming every Java run's model `java-verified` (one source, so its best-of-N groups mix reference kinds). */
function manifest(): string {
  const verified = path.join(JAVA, 'evaluation/java/verified');
  const files = readdirSync(verified).flatMap((run) => readdirSync(path.join(verified, run, 'trajs')).map((f) => path.join(verified, run, 'trajs', f)));
  const file = path.join(mkdtempSync(path.join(tmpdir(), 'steplens-warnings-')), 'manifest.jsonl');
  writeFileSync(file, files.map((f) => JSON.stringify({ file: path.relative(path.dirname(file), f), model: 'java-verified' })).join('\n') + '\n');
  return file;
}

/** The warning lines of a run's stdout and stderr, without their `warning: ` prefix. */
const printed = (r: { stdout: string; stderr: string }): string[] =>
  [...r.stdout.split('\n'), ...r.stderr.split('\n')].filter((l) => l.startsWith('warning: ')).map((l) => l.slice('warning: '.length));

describe('report.json warnings', () => {
  it('holds every warning the terminal prints, each once, and no other', async () => {
    const file = manifest();
    const [text, json] = await Promise.all([cli('report', '--manifest', file, JAVA, MINI), cli('report', '--json', '--manifest', file, JAVA, MINI)]);
    const warnings = (JSON.parse(json.stdout) as { warnings: string[] }).warnings;
    const shown = printed(text);
    // The reference-kind mix of the Java source, its best-of-N mix, and the terminal's stderr copies of them.
    expect(shown.some((w) => w.includes('its best-of-N by the composite score pools'))).toBe(true);
    expect(shown.some((w) => w.includes('pool scores against different kinds of reference') || w.includes('its AUROC and tier shares pool'))).toBe(true);
    expect(new Set(warnings)).toEqual(new Set(shown));
    expect(new Set(warnings).size).toBe(warnings.length);
    // With --json the stderr still names each one, once.
    expect(printed(json).sort()).toEqual([...warnings].sort());
  }, 180_000);

  it('keeps a warning about the inputs (a manifest naming no log found), printed once on stderr', async () => {
    const file = path.join(mkdtempSync(path.join(tmpdir(), 'steplens-warnings-')), 'manifest.jsonl');
    writeFileSync(file, `${JSON.stringify({ file: 'nowhere/x.traj', model: 'm' })}\n`);
    const r = await cli('report', '--json', '--manifest', file, JAVA);
    const warnings = (JSON.parse(r.stdout) as { warnings: string[] }).warnings;
    const manifestWarning = warnings.find((w) => w.startsWith('--manifest '));
    expect(manifestWarning).toBeDefined();
    expect(r.stderr.split('\n').filter((l) => l === `warning: ${manifestWarning}`)).toHaveLength(1);
  }, 120_000);
});
