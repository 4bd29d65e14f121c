/**
 * A `steplens` log whose `t` values do not run 0..n-1 (a line skipped, or the tail of a run numbered from 100): the
 * CLI numbers its steps 0..n-1 as the server does, so `score --json` names the signals and wasted steps that
 * `POST /v1/score` names (cli.md: "exactly the early-stop signals the server would have streamed"), and `label`'s `t`
 * are the steps those name.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { scoreDocument } from '../../src/cli/score-text.js';
import { bundledReferencesDir } from '../../src/package-files.js';
import { useInjectApp } from '../server/helpers.js';
import { CORPUS, cli } from './run-cli.js';

const TASK = 'fasterxml__jackson-core-1142';
const RUN = path.join(CORPUS, `multi-swe-bench__experiments/evaluation/java/verified/20240825_SWE-agent_doubao-pro-128k/trajs/${TASK}.traj`);
const dir = mkdtempSync(path.join(tmpdir(), 'steplens-step-numbers-'));
const app = useInjectApp({ seedDirs: [bundledReferencesDir()] });

type ScoreDoc = ReturnType<typeof scoreDocument>;
const indices = (d: ScoreDoc) => ({ total: d.score.total, signals: d.signals.map((s) => [s.kind, s.t, s.steps]), waste: d.waste.map((w) => w.steps) });

/** The run as steplens JSON Lines, changed by `edit` (its records, one a line). */
async function variant(name: string, edit: (lines: string[]) => string[]): Promise<string> {
  const converted = await cli('convert', RUN);
  expect(converted.code).toBe(0);
  const file = path.join(dir, name);
  writeFileSync(file, `${edit(converted.stdout.trimEnd().split('\n')).join('\n')}\n`);
  return file;
}

/** `POST /v1/score` of the file's records as they are (their own `t`), the line that is no JSON left out. */
async function serverScore(file: string): Promise<ScoreDoc> {
  const trajectory = readFileSync(file, 'utf8')
    .trimEnd()
    .split('\n')
    .flatMap((l) => {
      try {
        return [JSON.parse(l) as unknown];
      } catch {
        return [];
      }
    });
  const res = await app().inject({ method: 'POST', url: '/v1/score', payload: { task: TASK, format: 'steplens', trajectory } });
  expect(res.statusCode).toBe(200);
  return res.json<ScoreDoc>();
}

describe('steps numbered 0..n-1 as the server numbers them', () => {
  it('score: the signals and waste of a log with a skipped line, and of one numbered from 100, are the ones the server names', async () => {
    const skipped = await variant('skipped-line.jsonl', (ls) => ls.map((l, i) => (i === 2 ? '{"t": 2, "tool": ' : l)));
    const from100 = await variant('from-100.jsonl', (ls) => ls.map((l) => JSON.stringify({ ...(JSON.parse(l) as { t: number }), t: (JSON.parse(l) as { t: number }).t + 100 })));
    for (const file of [skipped, from100]) {
      const r = await cli('score', file, '--task', TASK, '--json', '--lenient');
      expect(r.code, r.stderr).toBe(0);
      const mine = JSON.parse(r.stdout) as ScoreDoc;
      expect(mine.signals.length).toBeGreaterThan(0);
      expect(indices(mine)).toEqual(indices(await serverScore(file)));
    }
  }, 60_000);

  it('label and convert number them the same way', async () => {
    const from100 = await variant('label-100.jsonl', (ls) => ls.map((l) => JSON.stringify({ ...(JSON.parse(l) as object), t: 100 + 2 * ls.indexOf(l) })));
    const labelled = JSON.parse((await cli('label', from100, '--json')).stdout) as { steps: Array<{ t: number }> };
    expect(labelled.steps.map((s) => s.t)).toEqual(labelled.steps.map((_, i) => i));
    const converted = (await cli('convert', from100)).stdout.trimEnd().split('\n');
    expect(converted.map((l) => (JSON.parse(l) as { t: number }).t)).toEqual(converted.map((_, i) => i));
  });
});
