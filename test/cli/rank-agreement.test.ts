/**
 * `steplens rank --bundled` (dist) and `POST /v1/rank` on a server seeded with the same references order the same real
 * runs alike, with the same composites: a run of a task with a PTA meets that PTA in a --mixed-tasks group (the CLI
 * scored every run of such a group against the prior), and a run whose log names no task (a real ATIF log) joins the
 * group's task and meets its PTA (the server scored it against the prior: 41.4 against the CLI's 55.8).
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { bundledReferencesDir, packageRoot } from '../../src/package-files.js';
import type { RankResponse } from '../../src/protocol/rank-bodies.js';
import { ASTROID, CORPUS, readDoc, useInjectApp } from '../server/helpers.js';

const bin = path.join(packageRoot(), 'dist', 'bin', 'steplens.js');
const A1866 = `${CORPUS}/SWE-agent__mini-swe-agent__pull-refs/output/deepseek_chat_dev/pylint-dev__astroid-1866/pylint-dev__astroid-1866.traj.json`;
/** An ATIF log naming no task. */
const NO_TASK = `${CORPUS}/sachiny0106__Xelron_harbor-copy/tests/golden/terminus_2/hello-world-context-summarization.trajectory.json`;

const view = (r: RankResponse) => ({ task: r.task, by: r.by, runs: r.runs.map((x) => [x.index, x.rank, x.composite, x.reference.kind]) });

describe.skipIf(!existsSync(bin))('rank: the CLI and POST /v1/rank agree', () => {
  const app = useInjectApp({ seedDirs: [bundledReferencesDir()] });
  const both = async (files: string[], flags: string[], body: Record<string, unknown>) => {
    const cli = spawnSync(process.execPath, [bin, 'rank', '--json', '--lenient', '--bundled', ...flags, ...files], { encoding: 'utf8', timeout: 120_000 });
    expect(cli.status, cli.stderr).toBe(0);
    const runs = await Promise.all(files.map(async (f) => ({ trajectory: await readDoc(f) })));
    const res = await app().inject({ method: 'POST', url: '/v1/rank', headers: { 'content-type': 'application/json' }, payload: JSON.stringify({ ...body, runs }) });
    expect(res.statusCode).toBe(200);
    return { cli: view(JSON.parse(cli.stdout) as RankResponse), http: view(res.json<RankResponse>()) };
  };

  it('on runs of two tasks, one with a PTA (--mixed-tasks)', async () => {
    const { cli, http } = await both([ASTROID.fail, A1866], ['--mixed-tasks'], { mixedTasks: true });
    expect(http).toMatchObject({
      by: 'mixed',
      runs: [
        [0, 1, expect.any(Number), 'pta'],
        [1, 2, expect.any(Number), 'prior'],
      ],
    });
    expect(cli).toEqual(http);
  }, 120_000);

  it("on a run whose log names no task beside a run of a task with a PTA: it joins the group's task", async () => {
    const { cli, http } = await both([ASTROID.fail, NO_TASK], [], {});
    expect(http).toMatchObject({ task: ASTROID.task, by: 'pta' });
    expect(cli).toEqual(http);
  }, 120_000);
});
