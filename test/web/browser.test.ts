/**
 * The web view in a real browser (Debian's Chromium driven by playwright-core):
 * a real run streamed over WebSocket appears on `/` and its score moves without
 * a reload; its page draws the charts and the final report; its task's PTA
 * shows the path; an upload is scored; the token flow keeps the token out of
 * URLs; report.html renders offline. No console errors anywhere.
 * Needs `npm run build` (dist/web) and /usr/bin/chromium (or STEPLENS_CHROMIUM).
 * Set STEPLENS_SCREENSHOTS=DIR to keep a screenshot of every page.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { reportCharts } from '../../src/report/render/charts.js';
import { htmlReport } from '../../src/report/render/html.js';
import { corpusReport, CORPUS } from '../report/corpus-fixture.js';
import { ASTROID, Client, readEvents, readSteps, startApp, type Running } from '../server/helpers.js';
import { launchChromium, shot, watchedPage } from './chromium.js';

const EXAMPLE = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../data/example');

let dir: string;
let open: Running;
let locked: Running;
let browser: BrowserContext;
const problems: string[] = [];

const newPage = (allow: RegExp | undefined = undefined): Promise<Page> => watchedPage(browser, problems, allow);

beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'steplens-web-'));
  const cal = path.join(dir, 'cal');
  await mkdir(cal);
  await writeFile(path.join(cal, 'calibration.json'), JSON.stringify({ policy: { blindRetry: { warn: 2, stop: 5 } }, tradeoff: { runs: { passing: 3, failing: 2 }, choice: { maxFalseStop: 0.05 } } }));
  await writeFile(path.join(cal, 'tradeoff.svg'), '<svg xmlns="http://www.w3.org/2000/svg" width="120" height="60"><title>trade-off</title><rect width="120" height="60" fill="#0072B2"/></svg>\n');
  open = await startApp({ dataDir: path.join(dir, 'open'), seedDirs: [EXAMPLE], calibrationDir: cal });
  locked = await startApp({ dataDir: path.join(dir, 'locked'), tokens: ['web-s3cret', { token: 'web-metrics', role: 'metrics' }] });
  browser = await launchChromium(path.join(dir, 'profile'));
}, 30_000);

afterAll(async () => {
  // The browser first: its sockets would keep the servers' close waiting.
  await browser?.close();
  await Promise.all([open?.app.close(), locked?.app.close()]);
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe('the web view in Chromium', () => {
  it('shows a streamed session on / and moves its score without a reload; its page, final report and PTA path follow', async () => {
    const page = await newPage();
    await page.goto(`${open.url}/`);
    await page.getByText('Open server: no token needed').waitFor();
    await page.evaluate(() => ((globalThis as unknown as { noReload: boolean }).noReload = true));

    const c = await Client.connect(open.wsUrl);
    const events = await readEvents(ASTROID.fail);
    c.send({ type: 'start', session: 'web-1', task: ASTROID.task, format: 'mini-swe-agent', agent: 'mini-swe-agent 1.1', model: 'deepseek/deepseek-chat' });
    const row = page.locator('tr[data-session="web-1"]');
    await row.waitFor();
    const half = 40;
    for (let seq = 0; seq < half; seq++) c.send({ type: 'step', session: 'web-1', seq, step: events[seq] });
    await c.sync();
    const steps = row.locator('td').nth(3);
    await expect.poll(() => steps.textContent(), { timeout: 5000 }).not.toBe('0');
    const score = row.locator('td').nth(4);
    const before = await score.textContent();
    expect(before).toMatch(/^\d+\.\d$/);
    await row.locator('.ribbon span').first().waitFor();
    await shot(page, 'sessions');

    for (let seq = half; seq < events.length; seq++) c.send({ type: 'step', session: 'web-1', seq, step: events[seq] });
    await c.sync();
    await expect.poll(() => score.textContent(), { timeout: 5000 }).not.toBe(before);
    expect(await page.evaluate(() => (globalThis as unknown as { noReload?: boolean }).noReload)).toBe(true);

    // Keyboard: sort by score with Enter, filter by task.
    await page.getByRole('button', { name: 'Score' }).focus();
    await page.keyboard.press('Enter');
    await expect.poll(() => page.locator('th[data-key="total"]').getAttribute('aria-sort')).toBe('descending');
    await page.getByLabel('Task').fill('no-such-task');
    await expect.poll(() => row.count()).toBe(0);
    await page.getByLabel('Task').fill('astroid');
    await expect.poll(() => row.count()).toBe(1);

    // Its page, by a link (no reload): charts, every step, signals, then the final report when it ends.
    await page.locator('a[href="/session/web-1?tenant=default"]').click();
    await page.getByRole('heading', { name: /Session web-1/ }).waitFor();
    expect(await page.evaluate(() => (globalThis as unknown as { noReload?: boolean }).noReload)).toBe(true);
    await expect.poll(() => page.locator('.chart canvas').count()).toBe(2);
    const parsed = (await readSteps(ASTROID.fail)).length;
    // The last raw event may wait for its pair until the session ends.
    await expect.poll(() => page.locator('table.steps tbody tr').count()).toBeGreaterThanOrEqual(parsed - 1);
    c.send({ type: 'outcome', session: 'web-1', passed: false });
    c.send({ type: 'end', session: 'web-1' });
    await page.getByRole('heading', { name: /Final report/ }).waitFor();
    await expect.poll(() => page.locator('table.steps tbody tr').count()).toBe(parsed);
    await expect.poll(() => page.locator('.stats .chip').first().textContent()).toMatch(/Partial-fail|Off-track/);
    await page.locator('.chart').focus();
    await page.keyboard.press('Home');
    await expect.poll(() => page.locator('.detail .detail-head').textContent()).toContain('Step 0 ');
    await page.keyboard.press('ArrowRight');
    await expect.poll(() => page.locator('.detail .detail-head').textContent()).toContain('Step 1 ');
    await expect.poll(() => page.locator('table.steps tr.selected td').first().textContent()).toBe('1');
    await shot(page, 'session');

    // The task's PTA with the session's path drawn over it.
    await page.getByRole('link', { name: "path over the task's PTA" }).click();
    await page.getByRole('heading', { name: /Path of session web-1 over the PTA/ }).waitFor();
    expect(await page.locator('.pta-node').count()).toBeGreaterThan(100);
    expect(await page.locator('.pta-node circle[stroke-width="3"]').count()).toBeGreaterThan(5);
    await page.getByRole('heading', { name: /Steps with no matching node/ }).waitFor();
    await page.locator('.pta-wrap').focus();
    await page.keyboard.press('ArrowRight');
    await expect.poll(() => page.locator('.pta .detail').textContent()).toMatch(/Node #\d+/);
    await shot(page, 'task');
    c.close();
    await page.close();
  });

  it('scores an uploaded trajectory and shows it like a session, with its path over the PTA', async () => {
    const page = await newPage();
    await page.goto(`${open.url}/score`);
    await page.setInputFiles('#u-file', ASTROID.passA);
    await expect.poll(() => page.locator('#u-task').inputValue()).toBe(ASTROID.task);
    await page.getByRole('button', { name: 'Score' }).click();
    const n = (await readSteps(ASTROID.passA)).length;
    await page.getByRole('heading', { name: `${ASTROID.task}: ${n} steps (mini-swe-agent)` }).waitFor();
    await expect.poll(() => page.locator('table.steps tbody tr').count()).toBe(n);
    await page.getByRole('heading', { name: "Path over the task's PTA" }).waitFor();
    // A bad paste gets one clear message.
    await page.setInputFiles('#u-file', []);
    await page.locator('#u-text').fill('{"not": "a log"');
    await page.getByRole('button', { name: 'Score' }).click();
    await expect.poll(() => page.getByRole('alert').textContent()).toContain('line 1 is not JSON');
    await shot(page, 'upload');
    await page.goto(`${open.url}/calibration`);
    await page.getByRole('heading', { name: 'Chosen policy' }).waitFor();
    // A bound, not a measured share (the page said "the chosen policy stops at most 5.0 % of passing runs").
    expect(await page.locator('main').textContent()).toContain('Its stops were chosen with the upper bound of the share of passing runs stopped at most 5.0 %.');
    expect(await page.locator('figure img').evaluate((img) => (img as unknown as { naturalWidth: number }).naturalWidth)).toBe(120);
    await page.close();
  });

  it('asks for a token when the server has tokens, sends it as a bearer header only, never in a URL (the feed takes a ticket)', async () => {
    const page = await newPage(/401 \(Unauthorized\)/);
    const urls: string[] = [];
    const bearers: string[] = [];
    page.on('request', (r) => {
      urls.push(r.url());
      const a = r.headers().authorization;
      if (a) bearers.push(a);
    });
    await page.goto(`${locked.url}/`);
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    await page.getByLabel('Bearer token').fill('wrong');
    await page.getByRole('button', { name: 'Use token' }).click();
    await expect.poll(() => page.getByRole('alert').textContent()).toContain('refused the token');
    await page.getByLabel('Bearer token').fill('web-s3cret');
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: 'Live sessions' }).waitFor();
    await page.locator('.badge.live-live').waitFor();
    await page.reload();
    await page.getByRole('heading', { name: 'Live sessions' }).waitFor();
    expect(urls.some((u) => u.includes('s3cret') || u.includes('wrong') || u.includes('token='))).toBe(false);
    expect(bearers).toContain('Bearer web-s3cret');
    // The live feed is an EventSource opened with a ticket (minted with the header), a new one per connection:
    // after the reload the page mints its ticket first, so the second feed may open after the heading shows.
    await expect.poll(() => urls.filter((u) => u.includes('/v1/live?')).length).toBeGreaterThanOrEqual(2);
    const feeds = urls.filter((u) => u.includes('/v1/live?'));
    expect(feeds.every((u) => /[?&]ticket=[\w.-]+/.test(u))).toBe(true);
    expect(new Set(feeds).size).toBe(feeds.length);
    await shot(page, 'token');
    await page.close();
  });

  it('tells a metrics token it cannot list sessions (it used to say "No sessions yet")', async () => {
    const page = await newPage(/403 \(Forbidden\)/);
    await page.goto(`${locked.url}/`);
    await page.getByLabel('Bearer token').fill('web-metrics');
    await page.keyboard.press('Enter');
    await page.locator('.badge.live-stopped').waitFor();
    await expect.poll(() => page.locator('tr.empty').textContent()).toMatch(/This token cannot list sessions: .*needs/);
    await page.close();
  });

  it('opens report.html from disk with nothing fetched', async () => {
    const report = corpusReport([path.join(CORPUS, 'multi-swe-bench__experiments')]);
    const file = path.join(dir, 'report.html');
    await writeFile(file, htmlReport(report, reportCharts(report)));
    const page = await newPage();
    const requests: string[] = [];
    page.on('request', (r) => requests.push(r.url()));
    await page.goto(`file://${file}`);
    await page.getByRole('heading', { name: 'steplens corpus report' }).waitFor();
    expect(requests).toEqual([`file://${file}`]);
    const sizes = await page.locator('figure svg').evaluateAll((els) => els.map((e) => (e as unknown as { getBoundingClientRect(): { width: number } }).getBoundingClientRect().width));
    expect(sizes).toHaveLength(3);
    for (const w of sizes) expect(w).toBeGreaterThan(200);
    await shot(page, 'report');
    await page.close();
  });

  it("a page of another origin cannot open an open server's stream (review s43: it grew PTAs as the local operator); the web view's own page can", async () => {
    // The attacker's page: another origin (another port of 127.0.0.1, as the review's repro), no CSP in the way.
    const other = createServer((_req, res) => res.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><title>another site</title>'));
    await new Promise<void>((resolve) => other.listen(0, '127.0.0.1', resolve));
    const refusals = async () => Number(/steplens_refusals_total\{code="forbidden_origin"\} (\d+)/.exec(await (await fetch(`${open.url}/metrics`)).text())?.[1] ?? 0);
    const stream = (page: Page) =>
      page.evaluate(
        (url) =>
          new Promise<string>((resolve) => {
            type Socket = { onopen: () => void; onerror: () => void; close(): void };
            const ws = new (globalThis as unknown as { WebSocket: new (u: string) => Socket }).WebSocket(url);
            ws.onopen = () => {
              ws.close();
              resolve('open');
            };
            ws.onerror = () => resolve('refused');
          }),
        open.wsUrl,
      );
    try {
      const page = await newPage(/WebSocket connection to .* failed/);
      const before = await refusals();
      await page.goto(`http://127.0.0.1:${(other.address() as AddressInfo).port}/`);
      expect(await stream(page)).toBe('refused');
      expect(await refusals()).toBe(before + 1);
      await page.goto(`${open.url}/`);
      await page.getByText('Open server: no token needed').waitFor();
      expect(await stream(page)).toBe('open');
      await page.close();
    } finally {
      other.close();
    }
  });

  it("shows a bidi control or a zero-width character in a tenant's names as an escape: a task or agent name cannot read backwards (T74) nor hide one (T76)", async () => {
    const page = await newPage();
    await page.goto(`${open.url}/`);
    const c = await Client.connect(open.wsUrl);
    c.send({ type: 'start', session: 'web-bidi', task: 'tsk\u202egnp.exe', format: 'mini-swe-agent', agent: 'agent \u2067x\u2069\u200b\ufeff', model: 'deepseek/deepseek-chat' });
    const row = page.locator('tr[data-session="web-bidi"]');
    await row.waitFor();
    const text = (await row.textContent()) ?? '';
    expect(text).toContain('tsk\\u202egnp.exe');
    // Zero-width characters too (T76): the agent could pass for `agent x`.
    expect(text).toContain('agent \\u2067x\\u2069\\u200b\\ufeff');
    expect(text).not.toMatch(/\p{Cf}/u);
    c.send({ type: 'end', session: 'web-bidi' });
    await c.sync();
    c.close();
    await page.close();
  });

  it('logged no console error on any page', () => {
    expect(problems).toEqual([]);
  });
});
