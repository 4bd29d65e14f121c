/**
 * `score` without `--pta` reads the prior pooled from the bundled references from data/example-prior.json
 * (build-examples writes it beside them) instead of reading and pooling the four PTAs at every start (issue 24).
 * The file must stay what pooling the references gives, and scores must not change with it.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { bundledPrior, loadPtaDir } from '../../src/cli/references.js';
import { priorFromPtas } from '../../src/core/prior.js';
import { bundledPriorFile, bundledReferencesDir } from '../../src/package-files.js';
import { CORPUS, cli } from './run-cli.js';

const MINI = join(CORPUS, 'SWE-agent__mini-swe-agent__pull-refs/output/deepseek_chat_dev/pylint-dev__astroid-1196/pylint-dev__astroid-1196.traj.json');

describe('the bundled prior file', () => {
  it('equals the prior pooled from the bundled references (run `npm run build-examples` after changing them)', async () => {
    const pooled = priorFromPtas(await loadPtaDir(bundledReferencesDir()));
    expect(JSON.parse(readFileSync(bundledPriorFile(), 'utf8'))).toStrictEqual(pooled);
    expect(await bundledPrior()).toStrictEqual(pooled);
  });

  it('scores exactly as pooling the bundled folder does', async () => {
    const fromFile = await cli('score', MINI, '--json');
    const pooled = await cli('score', MINI, '--json', '--prior-dir', bundledReferencesDir());
    expect(fromFile.code).toBe(0);
    expect(fromFile.stdout).toBe(pooled.stdout);
  });
});
