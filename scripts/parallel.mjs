#!/usr/bin/env node
/**
 * Runs npm scripts at the same time, each with its output held back and printed whole when it ends (so two
 * checks' findings never interleave); exits non-zero if any failed. `A+B` runs B after A, if A passed; a script
 * named in several chains runs once, and each chain waits for it. The last chain's last script prints as it runs
 * and gets the arguments after `--` (npm appends `npm test -- ARGS` there).
 *
 * `npm test` runs `build+typecheck lint:eslint lint:format build+test:vitest --` this way: the tests start once
 * the build is done, beside the type check, ESLint and Prettier (none of which writes anything the tests read).
 * The tests alone leave part of the second core idle (their files wait on servers, npm and Python), which the
 * checks fill; waiting for the checks first held every test back ~2 min (bench/README.md, "npm test's stages").
 *
 *   node scripts/parallel.mjs SCRIPT[+SCRIPT...]... [-- ARGS...]
 */
import { Buffer } from 'node:buffer';
import { spawn } from 'node:child_process';
import { performance } from 'node:perf_hooks';

const argv = process.argv.slice(2);
const dashes = argv.indexOf('--');
const chains = dashes < 0 ? argv : argv.slice(0, dashes);
const passed = dashes < 0 ? [] : argv.slice(dashes + 1);
if (chains.length === 0) throw new Error('usage: node scripts/parallel.mjs SCRIPT[+SCRIPT...]... [-- ARGS...]');
const live = chains.at(-1).split('+').at(-1);
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const began = performance.now();
const seconds = () => ((performance.now() - began) / 1000).toFixed(1);

/** Runs the npm scripts of `chain` (`A+B`) one after the other, stopping at the first that fails. */
async function runChain(chain) {
  for (const name of chain.split('+')) {
    const status = await once(name);
    if (status !== 0) return status;
  }
  return 0;
}

/** Each script's run, started by the first chain that reaches it. */
const runs = new Map();
function once(name) {
  if (!runs.has(name)) runs.set(name, name === live ? runLive(name) : runScript(name));
  return runs.get(name);
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
      process.stdout.write(`> ${name}: ${status === 0 ? 'ok' : `FAILED (${signal ?? `exit ${status}`})`} in ${seconds()} s\n${output}`);
      resolve(status);
    });
  });
}

/** The live script: its output goes straight through (a long test run shows its progress), then a closing line. */
function runLive(name) {
  return new Promise((resolve) => {
    process.stdout.write(`> ${name}: started at ${seconds()} s\n`);
    const args = ['run', '--silent', name, ...(passed.length > 0 ? ['--', ...passed] : [])];
    const child = spawn(npm, args, { stdio: ['ignore', 'inherit', 'inherit'], shell: process.platform === 'win32' });
    child.on('error', (error) => {
      process.stdout.write(`${error.message}\n`);
      resolve(1);
    });
    child.on('close', (code, signal) => {
      const status = code ?? 1;
      process.stdout.write(`> ${name}: ${status === 0 ? 'ok' : `FAILED (${signal ?? `exit ${status}`})`} in ${seconds()} s\n`);
      resolve(status);
    });
  });
}

const results = await Promise.all(chains.map(runChain));
process.exitCode = results.find((s) => s !== 0) ?? 0;
