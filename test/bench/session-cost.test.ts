/**
 * bench/session-cost.ts frees each session it ends through the registry, as the server's sweep does: it deleted the
 * registry's map entry only, so the registry's index kept every ended session (and its frame log and states) for the
 * whole run, and the bench's starts and ends ran against a heap the server never has (life30). It also reports each
 * pass's start and end of sessions with no step between them. Runs the built bench (`npm run build` first).
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { expect, it } from 'vitest';
import { packageRoot } from '../../src/package-files.js';

const ROOT = packageRoot();

it('frees every session it ran through the registry, and reports the start and end of sessions without steps', async () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'steplens-session-cost-'));
  try {
    const json = path.join(dir, 'out.json');
    // Exits 1 when any session is left in the registry or its index after the passes.
    await promisify(execFile)(process.execPath, [path.join(ROOT, 'dist/bench/session-cost.js'), '--sessions', '8', '--passes', '2', '--json', json], {
      cwd: ROOT,
      encoding: 'utf8',
      timeout: 120_000,
    });
    const { figures } = JSON.parse(readFileSync(json, 'utf8')) as { figures: Record<string, number> };
    for (const k of ['start_us', 'steps_us', 'end_us', 'bare_start_us_a_session', 'bare_end_us_a_session']) expect(figures[k], k).toBeGreaterThan(0);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}, 150_000);
