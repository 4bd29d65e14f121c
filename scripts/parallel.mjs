#!/usr/bin/env node
/**
 * Runs npm scripts at the same time, each with its output held back and printed whole when it ends (so two
 * checks' findings never interleave); exits non-zero if any failed. `A+B` runs B after A, if A passed. `npm test`
 * runs `build+typecheck`, ESLint and Prettier this way before the tests: ESLint and Prettier need no build, and
 * the build (tsc, one core) would leave the second core idle if they waited for it.
 *
 *   node scripts/parallel.mjs SCRIPT[+SCRIPT...]...
 */
import { Buffer } from 'node:buffer';
import { spawn } from 'node:child_process';
import { performance } from 'node:perf_hooks';

const scripts = process.argv.slice(2);
if (scripts.length === 0) throw new Error('usage: node scripts/parallel.mjs SCRIPT[+SCRIPT...]...');
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const began = performance.now();

/** Runs the npm scripts of `chain` (`A+B`) one after the other, stopping at the first that fails. */
async function runChain(chain) {
  for (const name of chain.split('+')) {
    const status = await runScript(name);
    if (status !== 0) return status;
  }
  return 0;
}

function runScript(name) {
  return new Promise((resolve) => {
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
  });
}

const results = await Promise.all(scripts.map(runChain));
process.exitCode = results.find((s) => s !== 0) ?? 0;
