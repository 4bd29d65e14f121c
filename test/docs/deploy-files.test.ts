/**
 * The deploy files against a server with tokens on: every health probe they configure answers without a token
 * (a probe sends none: with tokens set, /readyz used to answer 401, so HAProxy, Kubernetes and compose marked every
 * replica down), and behind their balancer the per-address connection cap is off.
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseLimits } from '../../src/server/config.js';
import { removeDir, startApp, tempDir, type Running } from '../server/helpers.js';

/** Each file and how its probes name a path. */
const PROBES: Array<[string, RegExp]> = [
  ['docker-compose.yml', /fetch\('http:\/\/127\.0\.0\.1:8787(\/[a-z]+)'\)/g],
  ['deploy/haproxy.cfg', /httpchk GET (\/[a-z]+)/g],
  ['deploy/kubernetes/steplens.yaml', /httpGet: \{ path: (\/[a-z]+)/g],
];
let dir: string;
let server: Running;

beforeAll(async () => {
  dir = await tempDir();
  server = await startApp({ dataDir: dir, tokens: ['s3cret'] });
});
afterAll(async () => {
  await server.app.close();
  await removeDir(dir);
});

describe('deploy files', () => {
  it('probe only paths that answer 200 without a token', async () => {
    for (const [file, probe] of PROBES) {
      const paths = [...readFileSync(file, 'utf8').matchAll(probe)].map((m) => m[1]!);
      expect(paths.length, file).toBeGreaterThan(0);
      for (const p of paths) expect([file, p, (await fetch(`${server.url}${p}`)).status]).toEqual([file, p, 200]);
    }
  });

  it('turn the per-address connection cap off behind their balancer', () => {
    for (const file of ['docker-compose.yml', 'deploy/kubernetes/steplens.yaml']) {
      const value = /STEPLENS_LIMITS(?::|\s*\n\s*value:)\s*([^\n]+)/.exec(readFileSync(file, 'utf8'))?.[1]?.trim();
      expect(value, file).toBeDefined();
      expect(parseLimits(value!.split(','))).toMatchObject({ connectionsPerAddress: 0 });
    }
  });
});
