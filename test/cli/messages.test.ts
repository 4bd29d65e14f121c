/**
 * Small messages the review s42 found unclear (finding 13), each now one line naming what is wrong, on real runs:
 * `replay --task ''`, `build-pta DIR`, `calibrate --runs EMPTY`, `STEPLENS_PORT=abc`, and the warning `rank` and
 * `report` give for a run its PTA was built from, which `score --pta` now gives too.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli/main.js';
import { packageRoot } from '../../src/package-files.js';
import { CORPUS, cli } from './run-cli.js';

const dir = mkdtempSync(path.join(tmpdir(), 'steplens-messages-'));
const DASK_DIR = path.join(CORPUS, 'christsakm__Trajectories/TODO/dask__dask-8685');
const DASK = ['trace_01_gpt-5-2025-08-07', 'trace_02_kimi-k2-instruct-0905', 'trace_03_qwen3-coder-480b-a35b-instruct'].map((t) => path.join(DASK_DIR, t, 'dask__dask-8685.traj'));
const EXAMPLE = path.join(packageRoot(), 'examples/runs/swe-agent-1/kimi-k2-instruct-0905/dask__dask-8685.traj');

const oneLine = (r: { code: number; stdout: string; stderr: string }, line: string) => expect(r).toEqual({ code: 1, stdout: '', stderr: `${line}\n` });

describe('one clear line', () => {
  it("replay --task '': the flag is empty (the log names its task)", async () => {
    oneLine(await cli('replay', EXAMPLE, '--url', 'http://127.0.0.1:1', '--task', ''), 'steplens replay: --task must not be empty');
  });

  it('score DIR, label DIR: the folder is named with what to give instead', async () => {
    const hint = `steplens %s: cannot read ${DASK_DIR}: is a directory (give the trajectory files in it; report, calibrate and train walk folders)`;
    oneLine(await cli('score', DASK_DIR), hint.replace('%s', 'score'));
    oneLine(await cli('label', DASK_DIR), hint.replace('%s', 'label'));
  });

  it('build-pta DIR: the folder is named, not a count of references', async () => {
    oneLine(
      await cli('build-pta', '--task', 'dask__dask-8685', '--out', path.join(dir, 'p.json'), DASK_DIR),
      `steplens build-pta: ${DASK_DIR} is a directory: build-pta takes the trajectory files of the task (e.g. ${path.join(DASK_DIR, '*', '*.traj')})`,
    );
  });

  it('calibrate --runs EMPTY: the file is empty, not "line 1: not valid JSON"', async () => {
    const empty = path.join(dir, 'empty.jsonl');
    writeFileSync(empty, '\n\n');
    oneLine(await cli('calibrate', '--runs', empty), `steplens calibrate: ${empty}: empty (a scored-runs file starts with its steplens-scored-runs header; calibrate --save-runs writes one)`);
  });

  it('STEPLENS_PORT=abc names the variable, not --port', async () => {
    let stderr = '';
    const code = await runCli(['serve'], { stdout: () => undefined, stderr: (s) => void (stderr += s), stderrIsTTY: false, cwd: dir, env: { STEPLENS_PORT: 'abc' } });
    expect({ code, stderr }).toEqual({ code: 1, stderr: "steplens serve: STEPLENS_PORT must be 0-65535 (got 'abc')\n" });
  });
});

describe('score --pta of a run the PTA was built from', () => {
  it('warns that it is scored optimistically, as rank does; a run the PTA was not built from is not warned about', async () => {
    const pta = path.join(dir, 'dask.json');
    expect((await cli('build-pta', '--task', 'dask__dask-8685', '--out', pta, DASK[0]!, DASK[1]!)).code).toBe(0);
    const held = await cli('score', DASK[0]!, '--pta', pta, '--json');
    expect(held.code).toBe(0);
    expect(held.stderr).toBe(`warning: ${pta} holds the path of ${DASK[0]} (a reference it was built from): scored optimistically against it\n`);
    expect((await cli('rank', DASK[0]!, '--pta', pta)).stderr).toContain('scored optimistically');
    const other = await cli('score', DASK[2]!, '--pta', pta, '--json');
    expect(other).toMatchObject({ code: 0, stderr: '' });
  });
});
