/**
 * Output files of the long commands (`train --out`, `calibrate --out / --config-out / --save-runs / --out-dir`): a
 * missing folder is created, as `build-pta --out` and `report --out` create theirs; a path that cannot be written
 * (a directory, a file's child) is one line naming the flag, before any work (review s42: after all of it, and
 * "internal error: ENOENT / EISDIR" for train).
 */
import { existsSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { packageRoot } from '../../src/package-files.js';
import { cli } from './run-cli.js';

const RUNS = path.join(packageRoot(), 'examples/runs');
const OUTCOMES = ['--outcomes', path.join(RUNS, 'outcomes.csv')];
const dir = mkdtempSync(path.join(tmpdir(), 'steplens-output-paths-'));
const folder = path.join(dir, 'a-folder');
const file = path.join(dir, 'a-file');
mkdirSync(folder);
writeFileSync(file, 'x');
/** A PATH that does not exist: read only after the output checks, so its error shows they came first. */
const MISSING = path.join(dir, 'no-such-runs');

const oneLine = (r: { code: number; stdout: string; stderr: string }, line: string) => expect(r).toEqual({ code: 1, stdout: '', stderr: `${line}\n` });

describe('output files of train and calibrate', () => {
  it('are written into folders that do not exist yet', async () => {
    const forecast = path.join(dir, 'new1', 'sub', 'forecast.json');
    const train = await cli('train', '--out', forecast, ...OUTCOMES, RUNS);
    expect(train.stderr).not.toContain('internal error');
    expect(existsSync(forecast)).toBe(true);
    const [policy, config, runs, charts] = ['new2/p.json', 'new3/c.json', 'new4/r.jsonl.gz', 'new5/charts'].map((f) => path.join(dir, f));
    const calibrate = await cli('calibrate', ...OUTCOMES, '--weights', '--out', policy!, '--config-out', config!, '--save-runs', runs!, '--out-dir', charts!, RUNS);
    expect(calibrate.stderr).not.toContain('cannot write');
    for (const f of [policy!, config!, runs!, path.join(charts!, 'tradeoff.csv')]) expect(existsSync(f), f).toBe(true);
  }, 120_000);

  it('that cannot be written are one line naming the flag, before the runs are read', async () => {
    oneLine(await cli('train', '--out', folder, ...OUTCOMES, MISSING), `steplens train: cannot write --out ${folder}: is a directory`);
    oneLine(await cli('train', '--out', path.join(file, 'f.json'), ...OUTCOMES, MISSING), `steplens train: cannot write --out ${path.join(file, 'f.json')}: a parent is a file, not a directory`);
    oneLine(await cli('calibrate', ...OUTCOMES, '--out', folder, MISSING), `steplens calibrate: cannot write --out ${folder}: is a directory`);
    oneLine(await cli('calibrate', ...OUTCOMES, '--save-runs', folder, MISSING), `steplens calibrate: cannot write --save-runs ${folder}: is a directory`);
    oneLine(await cli('calibrate', ...OUTCOMES, '--weights', '--config-out', folder, MISSING), `steplens calibrate: cannot write --config-out ${folder}: is a directory`);
    oneLine(await cli('calibrate', ...OUTCOMES, '--out-dir', file, MISSING), `steplens calibrate: cannot write --out-dir ${file}: a file, not a directory`);
  });
});
