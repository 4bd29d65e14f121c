/**
 * report.md is read through Markdown renderers, many of which keep raw HTML: a tenant's task, agent, model or file
 * name must reach it as text (HTML entities), never as a tag. The names come in through a manifest and the files'
 * own names, as a tenant would give them.
 */
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { markdownTable, markdownText } from '../../src/report/render/format-table.js';
import { cli } from '../cli/run-cli.js';
import { CORPUS_DIR } from '../fixtures/corpus.js';

const TAG = '<img src=x onerror=alert(1)>';
/** In a table cell (`>` too, as HTML escapes a cell). */
const SHOWN = '&lt;img src=x onerror=alert(1)&gt;';
/** In a line of text: `>` opens no tag, so the report's own `>=` stays as written. */
const IN_LINE = '&lt;img src=x onerror=alert(1)>';
const RUNS = ['deepseek_chat_dev', 'deepseek_chat_dev_rerun', 'deepseek_reasoner_dev', 'deepseek_lite_dev_noparallel'];

describe('report.md escapes HTML in what tenants name', () => {
  it('a task, agent, model and file name holding a tag reach report.md as entities, in tables and lines alike', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'steplens-md-escape-'));
    const rows = RUNS.map((run, i) => {
      mkdirSync(join(dir, run));
      const file = `${run}/${TAG} & co ${i}.traj.json`;
      // The log names its task (mini-swe-agent's instance_id): the real run under a tenant's task name.
      const log = JSON.parse(readFileSync(join(CORPUS_DIR, 'SWE-agent__mini-swe-agent__pull-refs/output', run, 'pylint-dev__astroid-1196/pylint-dev__astroid-1196.traj.json'), 'utf8')) as Record<
        string,
        unknown
      >;
      writeFileSync(join(dir, file), JSON.stringify({ ...log, instance_id: `task ${TAG}` }));
      // Every run passes: the task gets an in-folder PTA, so the headline names it too.
      return JSON.stringify({ file, agent: `agent <b>${i % 2}</b>`, model: `model ${TAG}`, resolved: true });
    });
    writeFileSync(join(dir, 'manifest.jsonl'), rows.join('\n') + '\n');
    const out = join(dir, 'out');
    const res = await cli('report', '--out', out, '--manifest', join(dir, 'manifest.jsonl'), dir);
    expect(res.stderr).not.toMatch(/error/);
    const md = readFileSync(join(out, 'report.md'), 'utf8');
    expect(md).not.toMatch(/<img|<b>|<\/b>/);
    const lines = md.split('\n');
    // Table cells (the tasks, models and trajectories tables) and the headline's task list.
    expect(lines.filter((l) => l.startsWith('|') && l.includes(`task ${SHOWN}`)).length).toBeGreaterThan(1);
    expect(lines.some((l) => l.startsWith('|') && l.includes(`model ${SHOWN}`) && l.includes('agent &lt;b&gt;0&lt;/b&gt;'))).toBe(true);
    expect(lines.some((l) => l.startsWith('|') && l.includes(`${SHOWN} &amp; co 0.traj.json`))).toBe(true);
    expect(lines.some((l) => l.startsWith('- tasks scored against an in-folder PTA (>= 3') && l.endsWith(`task ${IN_LINE}`))).toBe(true);
  });

  it('a cell: & < > as entities, | escaped, a newline a space; numbers and - as they were', () => {
    const t = { name: 'x', title: 'x', headers: ['a<b', 'n'], rows: [['x & <y>|z\nw', 1] as Array<string | number | null>, ['&amp;', null]] };
    expect(markdownTable(t)).toBe('| a&lt;b | n |\n| --- | ---: |\n| x &amp; &lt;y&gt;\\|z w | 1 |\n| &amp;amp; | - |');
  });

  it("a tenant's name cannot make a link or an image (fetched when the report is opened): `](` is written `]\\(`", () => {
    const names = ['![p](http://attacker.example/p.png)', '[click](javascript:alert(1))', 'ok [0.1, 0.2] (n = 3)'];
    expect(markdownText(names.join(' '))).toBe('![p]\\(http://attacker.example/p.png) [click]\\(javascript:alert(1)) ok [0.1, 0.2] (n = 3)');
    const t = { name: 'x', title: 'x', headers: ['task'], rows: names.map((n) => [n] as Array<string | number | null>) };
    expect(markdownTable(t).split('\n').slice(2)).toEqual(['| ![p]\\(http://attacker.example/p.png) |', '| [click]\\(javascript:alert(1)) |', '| ok [0.1, 0.2] (n = 3) |']);
  });
});
