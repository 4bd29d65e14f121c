/**
 * ws unmasks every client frame; without `bufferutil` it does so in a JavaScript loop over each byte (Node 20 and 24
 * have no `http.websocketUnmask`): 1.2-1.8 ms of the main thread a 1 MB frame, against 0.02 ms natively (T105).
 * `bufferutil` is an optional dependency, pinned, its install script not run: its prebuilds load at run time, or its
 * JavaScript fallback where none fits the platform. The bundled server must `require` it where it is installed,
 * not bundle it: bundled, its loader would look for the prebuilds beside the bundle and quietly fall back.
 */
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { packageRoot } from '../../src/package-files.js';

const ROOT = packageRoot();
const requireHere = createRequire(path.join(ROOT, 'package.json'));
const pkg = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { optionalDependencies?: Record<string, string> };
const installed = (() => {
  try {
    return path.dirname(requireHere.resolve('bufferutil/package.json'));
  } catch {
    return undefined;
  }
})();
/** A prebuild for this machine (the package ships linux-x64, darwin and win32 ones). */
const prebuilt = installed !== undefined && existsSync(path.join(installed, 'prebuilds', `${process.platform}-${process.arch}`));

describe('ws unmasks natively', () => {
  it('bufferutil is an optional dependency of an exact version', () => {
    expect(pkg.optionalDependencies?.bufferutil).toMatch(/^\d+\.\d+\.\d+$/);
  });

  it.skipIf(installed !== undefined && !prebuilt)('is installed and loads its native binding, not the JavaScript fallback', () => {
    expect(installed, 'bufferutil is not installed: run npm ci').toBeDefined();
    const native = requireHere('bufferutil') as { unmask: unknown };
    const fallback = requireHere('bufferutil/fallback') as { unmask: unknown };
    expect(native.unmask).not.toBe(fallback.unmask);
  });

  it('the bundled server requires it at run time and bundles none of its code', () => {
    const serve = readFileSync(path.join(ROOT, 'dist/bin/commands/serve.cjs'), 'utf8');
    expect(serve).toContain('require("bufferutil")');
    // bufferutil's own files: its loader call and its fallback's loop.
    expect(serve).not.toContain('node-gyp-build');
    expect(serve).not.toMatch(/bufferutil[/\\]fallback/);
  });
});
