/**
 * A forecast file with an end-of-run model (task endrank29), loaded as `serve --forecast FILE` loads it: a live
 * session is still scored by the prefix model, every score frame's pPass the offline scorer's at that prefix and
 * the final one its end value (online == batch); the end model never reaches a live session.
 */
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { selectModel } from '../../src/core/forecast/model.js';
import { UNIFORM_PRIOR } from '../../src/core/prior.js';
import { scoreSteps } from '../../src/core/scorer.js';
import { readForecastFile } from '../../src/settings-files.js';
import { defaultAnalyzers } from '../../src/syntax/index.js';
import { endForecastFileOf, labelledRuns } from '../forecast/fixtures.js';
import { Client, removeDir, startApp, tempDir } from './helpers.js';

const runs = labelledRuns();

describe('serve --forecast with an end-of-run model in the file', () => {
  it('scores live sessions by the prefix model at every prefix (online == batch)', async () => {
    const dir = await tempDir();
    const file = path.join(dir, 'forecast.json');
    const written = endForecastFileOf(runs);
    await writeFile(file, JSON.stringify(written));
    const forecast = await readForecastFile(file);
    expect(forecast.end).toEqual(written.end);
    const srv = await startApp({ dataDir: path.join(dir, 'data'), forecast });
    try {
      const run = runs[1]!;
      const c = await Client.connect(srv.wsUrl);
      c.send({ type: 'start', session: 'e-1', task: run.task, agent: 'swe-agent 1.1.0' });
      await c.nextOf('started', 'e-1');
      run.steps.forEach((step, seq) => c.send({ type: 'step', session: 'e-1', seq, step }));
      const scores = [];
      for (const _step of run.steps) scores.push(await c.nextOf('score', 'e-1'));
      c.send({ type: 'end', session: 'e-1' });
      const final = await c.nextOf('final', 'e-1');
      const model = selectModel(forecast, 'swe-agent 1.1.0', undefined)!;
      const offline = scoreSteps(run.steps, { reference: { kind: 'prior', prior: UNIFORM_PRIOR }, analyzers: defaultAnalyzers(), forecast: model });
      scores.forEach((s, i) => expect(s.pPass).toBe(offline.results[i]!.pPass));
      expect(final.pPass).toBe(offline.report.pPass);
      c.close();
    } finally {
      await srv.app.close();
      await removeDir(dir);
    }
  });
});
