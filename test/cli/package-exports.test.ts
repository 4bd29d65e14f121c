import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { packageRoot } from '../../src/package-files.js';
import { CORPUS_DIR } from '../fixtures/corpus.js';

const root = packageRoot();

/** The package's library entry points, as a consumer imports them (built by `npm test` / `npm ci`). */
describe.skipIf(!existsSync(join(root, 'dist', 'src', 'index.js')))('package exports', () => {
  it('steplens, steplens/server and steplens/client resolve and score a real trajectory', () => {
    const file = join(CORPUS_DIR, 'christsakm__Trajectories/TODO/dask__dask-8685/trace_02_kimi-k2-instruct-0905/dask__dask-8685.traj');
    const script = `
      import { readFileSync } from 'node:fs';
      import { createScorer, defaultAnalyzers, parseTrajectoryText, UNIFORM_PRIOR } from 'steplens';
      import { buildApp } from 'steplens/server';
      import { connect } from 'steplens/client';
      const parsed = parseTrajectoryText(readFileSync(${JSON.stringify(file)}, 'utf8'), 'auto');
      const scorer = createScorer({ reference: { kind: 'prior', prior: UNIFORM_PRIOR }, analyzers: defaultAnalyzers() });
      for (const step of parsed.value.steps) scorer.push(step);
      console.log(JSON.stringify({ steps: scorer.length, kind: scorer.report().reference.kind, app: typeof buildApp, client: typeof connect }));
    `;
    const out = execFileSync(process.execPath, ['--input-type=module', '-e', script], { cwd: root, encoding: 'utf8' });
    expect(JSON.parse(out)).toEqual({ steps: 14, kind: 'prior', app: 'function', client: 'function' });
  });
});
