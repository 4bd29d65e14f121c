#!/usr/bin/env node
/**
 * Runs npm scripts at the same time, each with its output held back and printed whole when it ends (so two
 * checks' findings never interleave); exits non-zero if any failed. `npm test` runs its three checks (type
 * check, ESLint, Prettier: each one process on one core) this way before the tests.
 *
 *   node scripts/parallel.mjs SCRIPT...
 */
import { Buffer } from 'node:buffer';
import { spawn } from 'node:child_process';
import { performance } from 'node:perf_hooks';

const scripts = process.argv.slice(2);
if (scripts.length === 0) throw new Error('usage: node scripts/parallel.mjs SCRIPT...');
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const began = performance.now();

const results = await Promise.all(
  scripts.map(
    (name) =>
      new Promise((resolve) => {
        const chunks = [];
        const child = spawn(npm, ['run', '--silent', name], { stdio: ['ignore', 'pipe', 'pipe'], shell: process.platform === 'win32' });
        child.stdout.on('data', (c) => chunks.push(c));
        child.stderr.on('data', (c) => chunks.push(c));
        child.on('error', (error) => chunks.push(Buffer.from(`${error.message}\n`)));
        child.on('close', (code, signal) => {
          const status = code ?? 1;
          const output = Buffer.concat(chunks).toString();
          process.stdout.write(`> ${name}: ${status === 0 ? 'ok' : `FAILED (${signal ?? `exit ${status}`})`} in ${((performance.now() - began) / 1000).toFixed(1)} s\n${output}`);
          resolve(status);
        });
      }),
  ),
);
process.exitCode = results.find((s) => s !== 0) ?? 0;
