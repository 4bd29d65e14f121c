/**
 * What the browser tests share: Debian's Chromium (or STEPLENS_CHROMIUM) in a persistent headless context, pages
 * whose console errors are collected, screenshots kept when STEPLENS_SCREENSHOTS=DIR is set, and the token form.
 */
import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { webRoot } from '../../src/server/web-assets.js';

export const CHROMIUM = process.env.STEPLENS_CHROMIUM ?? '/usr/bin/chromium';
const SHOTS = process.env.STEPLENS_SCREENSHOTS;

/** A headless Chromium over a profile in `profileDir`; throws, naming the fix, without dist/web or Chromium. */
export async function launchChromium(profileDir: string): Promise<BrowserContext> {
  if (webRoot() === undefined) throw new Error('dist/web is missing: run `npm run build` before the browser tests');
  if (!existsSync(CHROMIUM)) throw new Error(`no Chromium at ${CHROMIUM}: apt-get install chromium (or set STEPLENS_CHROMIUM)`);
  if (SHOTS) await mkdir(SHOTS, { recursive: true });
  return chromium.launchPersistentContext(profileDir, {
    executablePath: CHROMIUM,
    headless: true,
    viewport: { width: 1360, height: 900 },
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
  });
}

/** A new page whose console errors (but those `allow` matches) and uncaught errors go to `problems`. */
export async function watchedPage(browser: BrowserContext, problems: string[], allow: RegExp | undefined = undefined): Promise<Page> {
  const page = await browser.newPage();
  page.on('console', (m) => {
    if (m.type() === 'error' && !(allow?.test(m.text()) ?? false)) problems.push(`${page.url()}: ${m.text()}`);
  });
  page.on('pageerror', (e) => problems.push(`${page.url()}: ${e.message}`));
  return page;
}

/** A full-page screenshot `name`.png in STEPLENS_SCREENSHOTS, when set. */
export async function shot(page: Page, name: string): Promise<void> {
  if (SHOTS) await page.screenshot({ path: path.join(SHOTS, `${name}.png`), fullPage: true });
}

/** Opens the sessions list of the server at `base` and gives the token form `token` (kept in this tab's sessionStorage: a reload keeps it). */
export async function signIn(page: Page, base: string, token: string): Promise<void> {
  await page.goto(`${base}/`);
  await page.getByLabel('Bearer token').fill(token);
  await page.keyboard.press('Enter');
  await page.getByRole('heading', { name: 'Live sessions' }).waitFor();
}
