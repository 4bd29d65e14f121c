/**
 * `steplens score` and `rank` of a log whose every step is a new text of one Python file the PTA's scopes are looked up in
 * (docs/reliability.md, T119): a parse tree's native memory is freed by its wrapper's finalizer, which Node runs
 * only on a turn of the event loop, so steps pushed in one go held every tree made until the run was scored
 * (600 one-line edits of a 3,000-line file: 925 MB of RSS, 251 MB pushed in slices). Bytes, not time: the process's
 * peak RSS grows by far less than the trees made (~1.5 MB a step).
 */
import { copyFileSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot } from '../../bench/corpus.js';
import { cli } from './run-cli.js';

const STEPS = 400;
const MB = 1024 * 1024;

/** A file created, then `STEPS` one-line edits: its first line indented, so every text is parsed (not plain indentation). */
function editsLog(): string {
  const text = Array.from({ length: 3000 }, (_, i) => (i % 10 === 0 ? `def f${i}(x):` : `    x = x + ${i}`)).join('\n');
  const steps: object[] = [{ t: 0, tool: 'e', action: { kind: 'edit', op: 'create', path: 'src/a.py', text }, observation: 'ok' }];
  for (let i = 0; i < STEPS; i++) {
    const line = 1 + (i % 2000);
    steps.push({ t: i + 1, tool: 'e', action: { kind: 'edit', op: 'replace_lines', path: 'src/a.py', range: [line, line], new: `    y = ${i}` }, observation: 'ok' });
  }
  const file = join(mkdtempSync(join(tmpdir(), 'steplens-tree-memory-')), 'edits.jsonl');
  writeFileSync(file, steps.map((s) => JSON.stringify(s)).join('\n') + '\n');
  copyFileSync(file, file.replace(/edits\.jsonl$/, 'again.jsonl'));
  return file;
}

const PTA = ['--pta', join(repoRoot(), 'data/example/pylint-dev__astroid-1196.json'), '--task', 'pylint-dev__astroid-1196', '--json'];

describe('score and rank: parse trees freed while runs are scored', () => {
  it('keeps the peak RSS far below the trees made', async () => {
    const file = editsLog();
    const before = process.memoryUsage().rss;
    const run = await cli('score', file, ...PTA);
    const grew = process.resourceUsage().maxRSS * 1024 - before;
    expect(run.code).toBe(0);
    // Pushed in one go: ~600 MB at 400 steps (1.5 MB a step); in slices the cache's 64 MiB and a few trees' worth.
    expect(grew).toBeLessThan(350 * MB);
  });

  it('rank of two such runs: the peak RSS stays as low', async () => {
    const file = editsLog();
    const before = process.memoryUsage().rss;
    const run = await cli('rank', file, file.replace(/edits\.jsonl$/, 'again.jsonl'), ...PTA);
    const grew = process.resourceUsage().maxRSS * 1024 - before;
    expect(run.code).toBe(0);
    // In one go: both runs' trees (~1.2 GB at 800 steps).
    expect(grew).toBeLessThan(350 * MB);
  });
});
