/**
 * The README's picture of the web view, reproducible: starts the server (bundled references, a temp data
 * folder, 127.0.0.1:0), replays a sample run with the real CLI exactly as the README's quick start does,
 * opens the session's page in Chromium (playwright-core; /usr/bin/chromium or STEPLENS_CHROMIUM), selects the
 * step where the first signal fired, else the first implementation step (its detail opens under the chart) and writes the page from the top down
 * to that detail, 1500x1030 CSS pixels at scale 0.8: a 1200x824 PNG. Everything it started is stopped.
 *
 *   npm run build && node dist/bench/screenshots.js [--out docs/images/web-session.png]
 */
import { execFile } from 'node:child_process';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { chromium, type Browser } from 'playwright-core';
import { buildApp } from '../src/server/app.js';
import { bundledReferencesDir, packageRoot } from '../src/package-files.js';
import { benchArgs } from './args.js';

const ROOT = packageRoot();
const CLI = path.join(ROOT, 'dist/src/cli/main.js');
const CHROMIUM = process.env.STEPLENS_CHROMIUM ?? '/usr/bin/chromium';
/**
 * The README's second replay: a failing mini-swe-agent run on a task with no reference. It writes and runs a
 * reproduction script every few steps, so no exploration streak fires (one did at t 17 before such a step ended
 * a streak), and its re-runs after `pip install` are not blind retries.
 */
const RUN = {
  file: 'examples/runs/mini-swe-agent/deepseek_bench1/django__django-13401.traj.json',
  task: 'django__django-13401',
  session: 'django-13401',
};
const VIEWPORT = { width: 1500, height: 1030 };
const SCALE = 0.8;

/** Replays RUN with the CLI (`--failed`, as the README does); returns the step of the first signal, else of the first I stage. */
async function replay(url: string): Promise<number | undefined> {
  const args = [CLI, 'replay', RUN.file, '--url', url, '--task', RUN.task, '--failed', '--session', RUN.session];
  const { stdout } = await promisify(execFile)(process.execPath, args, { cwd: ROOT, encoding: 'utf8' });
  const lines = stdout.split('\n').filter((l) => /^(session|final|\s+!)/.test(l));
  process.stdout.write(`steplens replay ${RUN.file} --task ${RUN.task} --failed:\n${lines.join('\n')}\n`);
  // eslint-disable-next-line regexp/no-super-linear-move -- the replay output of one fixed example run (a few hundred lines)
  const first = /^\s+! \w+ \w+ at t (\d+)/m.exec(stdout);
  if (first) return Number(first[1]);
  const firstEdit = /^final: .* stages ([EIVO]+)/m.exec(stdout)?.[1]?.indexOf('I') ?? -1;
  return firstEdit >= 0 ? firstEdit : undefined;
}

async function screenshot(browser: Browser, url: string, step: number | undefined, out: string): Promise<void> {
  const page = await browser.newPage({ viewport: VIEWPORT, deviceScaleFactor: SCALE });
  await page.goto(`${url}/session/${RUN.session}`);
  await page.getByRole('heading', { name: /Final report/ }).waitFor();
  if (step !== undefined) {
    // The chart's keyboard walk (Home, then → per step) selects a step as a click does.
    await page.locator('.chart').first().focus();
    await page.keyboard.press('Home');
    for (let t = 0; t < step; t++) await page.keyboard.press('ArrowRight');
    await page.locator('.detail .detail-head').getByText(`Step ${step} `).waitFor();
    await page
      .locator('.chart')
      .first()
      .evaluate((el) => (el as unknown as { blur: () => void }).blur());
  }
  await page.screenshot({ path: out });
}

async function main(): Promise<void> {
  const { values } = benchArgs({ options: { out: { type: 'string', default: 'docs/images/web-session.png' } } }, 'node dist/bench/screenshots.js [--out docs/images/web-session.png]');
  const out = path.resolve(ROOT, values.out);
  const dir = await mkdtemp(path.join(os.tmpdir(), 'steplens-screenshot-'));
  const app = await buildApp({ dataDir: dir, seedDirs: [bundledReferencesDir()], logLevel: 'silent' });
  let browser: Browser | undefined;
  try {
    const url = await app.listen({ host: '127.0.0.1', port: 0 });
    const step = await replay(url);
    browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: ['--no-sandbox', '--disable-gpu'] });
    await screenshot(browser, url, step, out);
  } finally {
    await browser?.close();
    await app.close();
    await rm(dir, { recursive: true, force: true });
  }
  const kb = Math.round((await stat(out)).size / 1024);
  process.stdout.write(`wrote ${path.relative(process.cwd(), out)} (${VIEWPORT.width * SCALE}x${VIEWPORT.height * SCALE}, ${kb} KB)\n`);
}

main().catch((error: unknown) => {
  process.stderr.write(`screenshots: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
