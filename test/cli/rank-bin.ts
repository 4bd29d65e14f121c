/** `steplens rank` through the built bin (dist/bin/steplens.js, the bundle users run), for the rank tests. */
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { expect } from 'vitest';
import { packageRoot } from '../../src/package-files.js';
import { rankResponseSchema, type RankResponse } from '../../src/protocol/rank-bodies.js';

export const RANK_BIN = path.join(packageRoot(), 'dist', 'bin', 'steplens.js');

/** `steplens rank ARGS...`: exit code and output. */
export function rankBin(...args: string[]): { code: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, [RANK_BIN, 'rank', ...args], { encoding: 'utf8', timeout: 120_000 });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** `steplens rank --json ARGS...`, which must exit 0 with a document the response schema takes. */
export function rankJson(...args: string[]): RankResponse {
  const r = rankBin('--json', ...args);
  expect(r.code, r.stderr).toBe(0);
  const doc: unknown = JSON.parse(r.stdout);
  expect(rankResponseSchema.safeParse(doc).success).toBe(true);
  return doc as RankResponse;
}
