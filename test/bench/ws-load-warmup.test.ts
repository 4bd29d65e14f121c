/**
 * ws-load's warm-up (bench/ws-load.ts `--warmup-ms`): after the old 1.5 s the server was still compiling its step
 * path, and the first measured round of steplens ran at a third of the later ones (bench/README.md, life20). The
 * default is read from the script's own options and from bench/README.md's table, which must agree.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { readmeUsage } from '../../bench/args.js';
import { packageRoot } from '../../src/package-files.js';

const ROOT = packageRoot();

describe("ws-load's warm-up", () => {
  it('is long enough for the server to be compiled before the rounds (>= 5 s), and the README says the same default', () => {
    const source = readFileSync(path.join(ROOT, 'bench/ws-load.ts'), 'utf8');
    const own = /'warmup-ms': \{ type: 'string', default: '(\d+)' \}/.exec(source)?.[1];
    const readme = readmeUsage(readFileSync(path.join(ROOT, 'bench/README.md'), 'utf8'), 'ws-load');
    const listed = /\[--warmup-ms (\d+)\]/.exec(readme ?? '')?.[1];
    expect(Number(own)).toBeGreaterThanOrEqual(5000);
    expect(listed).toBe(own);
  });
});
