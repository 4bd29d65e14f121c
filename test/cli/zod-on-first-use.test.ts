/**
 * zod in the bin's command files (scripts/zod-on-first-use.mjs, wired by scripts/cli-bundle.mjs): not loaded until a
 * schema is first used, and then every schema answers as zod's own does. A module of the test's own, written the
 * way the sources write their schemas (`z.lazy` at the top, one lazy schema inside another's shape, `.optional()` on
 * one), is bundled twice, with the plugin and with plain zod, and each bundle run in a process of its own: the
 * parses, their issues, what a stand-in looks like from outside and its JSON Schema must be the same. And the bin:
 * zod not loaded by a plain `score`, and every command path through a schema (settings files good and bad, the
 * bundled forecaster, steplens-format logs) printing what the sources print.
 */
import { execFile, execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import * as esbuild from 'esbuild';
import { afterAll, describe, expect, it } from 'vitest';
import { packageRoot } from '../../src/package-files.js';
import { CORPUS, cli } from './run-cli.js';

const ROOT = packageRoot();
const work = mkdtempSync(path.join(os.tmpdir(), 'steplens-zod-first-use-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

const MODULE = `
import { z } from 'zod';
const loaded = () => '__zod_globalRegistry' in globalThis;
const atStart = loaded();
const inner = z.lazy(() => z.object({ n: z.number().int().positive(), s: z.enum(['a', 'b']).optional() }).strict().describe('inner'));
const outer = z.lazy(() => z.object({ list: z.array(z.object({ inner })), maybe: inner.optional(), nul: inner.nullable().optional() }).passthrough());
const afterDefining = loaded();
const inputs = [{ list: [{ inner: { n: 1 } }] }, { list: [{ inner: { n: -1, s: 'c' } }], maybe: { n: 2, x: 1 }, extra: true }, { list: 'no' }, null, { list: [], nul: null }];
const parsed = inputs.map((x) => { const r = outer.safeParse(x); return r.success ? { data: r.data } : { issues: r.error.issues }; });
let thrown;
try { inner.parse({ n: 0 }); } catch (e) { thrown = { zodError: e instanceof z.ZodError, message: e.message }; }
const looks = { keys: Object.keys(inner).sort(), hasZod: '_zod' in inner, isType: inner instanceof z.ZodType, type: inner._zod.def.type, proto: Object.getPrototypeOf(inner) === z.ZodLazy.prototype, def: Object.keys(inner._zod.def).sort() };
console.log(JSON.stringify({ atStart, afterDefining, parsed, thrown, looks, json: z.toJSONSchema(outer), used: loaded() }));
`;

async function bundleAndRun(name: string, plugins: esbuild.Plugin[]): Promise<Record<string, unknown>> {
  const dir = path.join(work, name);
  mkdirSync(path.join(dir, 'src'), { recursive: true });
  const entry = path.join(dir, 'src', 'entry.mjs');
  writeFileSync(entry, MODULE);
  const out = path.join(dir, 'bundle.cjs');
  await esbuild.build({
    entryPoints: [entry],
    outfile: out,
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    nodePaths: [path.join(ROOT, 'node_modules')],
    plugins,
    logLevel: 'error',
  });
  return JSON.parse(execFileSync(process.execPath, [out], { encoding: 'utf8' })) as Record<string, unknown>;
}

describe('zod on first use (the bin command files)', () => {
  it('loads zod at the first use of a schema, whose answers are all zod', async () => {
    const { zodEnglishOnly, zodOnFirstUse } = (await import(pathToFileURL(path.join(ROOT, 'scripts', 'cli-bundle.mjs')).href)) as {
      zodEnglishOnly: esbuild.Plugin;
      zodOnFirstUse: (sources: string) => esbuild.Plugin;
    };
    const deferred = await bundleAndRun('deferred', [zodOnFirstUse(path.join(work, 'deferred', 'src')), zodEnglishOnly]);
    const plain = await bundleAndRun('plain', [zodEnglishOnly]);
    expect(plain).toMatchObject({ atStart: true, afterDefining: true, used: true });
    expect(deferred).toMatchObject({ atStart: false, afterDefining: false, used: true });
    const { atStart: _a, afterDefining: _b, ...answers } = deferred;
    const { atStart: _c, afterDefining: _d, ...expected } = plain;
    expect(answers).toEqual(expected);
    expect((answers.parsed as unknown[]).filter((p) => (p as { issues?: unknown }).issues !== undefined)).toHaveLength(3);
  });
});

const BIN = path.join(ROOT, 'dist', 'bin', 'steplens.js');
const RUN = path.join(CORPUS, 'SWE-agent__mini-swe-agent__pull-refs/output/deepseek_chat_dev/pylint-dev__astroid-1196/pylint-dev__astroid-1196.traj.json');

/** The bin with a probe that says on stderr's last line whether zod's modules ran (they set a global registry). */
async function probed(...args: string[]): Promise<{ code: number; stdout: string; stderr: string; zod: boolean }> {
  const probe = path.join(work, 'zod-probe.cjs');
  writeFileSync(probe, "process.on('exit', () => process.stderr.write('zod:' + ('__zod_globalRegistry' in globalThis) + '\\n'));\n");
  let r: { code: number; stdout: string; stderr: string };
  try {
    const ok = await promisify(execFile)(process.execPath, ['--require', probe, BIN, ...args], { cwd: work, encoding: 'utf8', maxBuffer: 1 << 26 });
    r = { code: 0, stdout: ok.stdout, stderr: ok.stderr };
  } catch (error) {
    r = error as { code: number; stdout: string; stderr: string };
  }
  const m = /zod:(true|false)\n$/.exec(r.stderr);
  return { code: r.code, stdout: r.stdout, stderr: r.stderr.slice(0, m?.index), zod: m?.[1] === 'true' };
}

describe('zod in the bin', () => {
  it('is not loaded by a plain score, and every schema path prints what the sources print', async () => {
    const file = (name: string, text: string): string => {
      writeFileSync(path.join(work, name), text);
      return path.join(work, name);
    };
    const steps = (await cli('convert', RUN)).stdout;
    const lines = steps.trimEnd().split('\n');
    const settings = {
      good: file('config.json', '{ "weights": { "coh": 2, "temp": 0.5 }, "tiers": { "ideal": 90 } }'),
      bad: file('bad-config.json', '{ "weights": { "coh": -1 }, "tau": 5, "bogus": 1 }'),
      policy: file('policy.json', '{ "blindRetry": { "warn": 1, "stop": 3 }, "lowScore": { "floor": 60, "minSteps": 5, "severity": "stop" } }'),
      badPolicy: file('bad-policy.json', '{ "blindRetry": { "warn": 0 }, "lowScore": { "severity": "maybe" } }'),
      badForecast: file('bad-forecast.json', '{ "format": "steplens-forecast" }'),
      steps: file('steps.jsonl', steps),
      badSteps: file('bad-steps.jsonl', [...lines.slice(0, 5), '{ "t": "x", "tool": 3 }', ...lines.slice(5)].join('\n')),
    };
    const plain = await probed('score', RUN, '--json');
    expect(plain).toMatchObject({ code: 0, zod: false });
    const cases = [
      [['score', RUN, '--json', '--config', settings.good], true],
      [['score', RUN, '--json', '--config', settings.bad], true],
      [['score', RUN, '--json', '--policy', settings.policy, '--forecast', 'bundled'], true],
      [['score', RUN, '--json', '--policy', settings.badPolicy], true],
      [['score', RUN, '--json', '--forecast', settings.badForecast], true],
      [['score', settings.steps, '--json'], true],
      [['score', settings.badSteps, '--json'], true],
      [['label', settings.badSteps, '--json', '--lenient'], true],
    ] as const;
    for (const [args, zod] of cases) {
      const expected = await cli(...args);
      const got = await probed(...args);
      expect({ code: got.code, stdout: got.stdout, stderr: got.stderr }, args.join(' ')).toEqual(expected);
      expect(got.zod, args.join(' ')).toBe(zod);
    }
  });
});
