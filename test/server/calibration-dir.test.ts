/**
 * audit20: `serve --calibration DIR` with a DIR that holds no calibration.json (a mistyped folder) started without a
 * word; the page and GET /v1/calibration then said only "missing from the calibration directory" (they name no
 * folder of the server's to a client). Now the server's log says at start which folder and what writes it.
 */
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { captured } from './captured-log.js';
import { removeDir, startApp, tempDir } from './helpers.js';

const dir = await tempDir();
afterAll(() => removeDir(dir));

describe('serve --calibration DIR without a calibration.json', () => {
  it('warns at start, naming the folder, and answers unknown_task as before', async () => {
    const { log, lines } = captured();
    const missing = path.join(dir, 'no-such-calibration');
    const running = await startApp({ dataDir: path.join(dir, 'data'), calibrationDir: missing, logger: log });
    try {
      const warned = lines.filter((l) => l.level === 40 && String(l.msg).startsWith('--calibration'));
      expect(warned.map((l) => l.msg)).toEqual([
        `--calibration ${missing}: no calibration.json there (yet); GET /v1/calibration answers unknown_task until steplens calibrate --out-dir ${missing} writes one`,
      ]);
      const answer = await fetch(`${running.url}/v1/calibration`);
      expect(answer.status).toBe(404);
      expect(((await answer.json()) as { error: { code: string } }).error.code).toBe('unknown_task');
    } finally {
      await running.app.close();
    }
  });
});
