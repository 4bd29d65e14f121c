/**
 * The web view's layout in Chromium at a laptop width (1400 px): the sessions table fits the window with
 * every column (no cell drawn past its edge, nothing to scroll sideways) when sessions carry real ids, tasks
 * and agent / model names; on a task page no file label covers a node circle or another label (measured on
 * the rotated label rectangles). Real runs of examples/runs stream over WebSocket. Issue 23, item 7.
 * Needs `npm run build` (dist/web) and /usr/bin/chromium (or STEPLENS_CHROMIUM).
 */
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getParser, parseTrajectoryText } from '../../src/formats/index.js';
import { webRoot } from '../../src/server/web-assets.js';
import { Client, startApp, type Running } from '../server/helpers.js';
import { labelOverlaps, type MeasuredBox, type MeasuredCircle } from './geometry.js';

const CHROMIUM = process.env.STEPLENS_CHROMIUM ?? '/usr/bin/chromium';
const ROOT = path.resolve(import.meta.dirname, '../..');
/** Real runs: file, and the model for a log that names none (its run folder, as the README's table does). */
const RUNS = [
  ['examples/runs/swe-agent-1/kimi-k2-instruct-0905/dask__dask-8685.traj', undefined],
  ['examples/runs/mini-swe-agent/deepseek_bench1/django__django-13401.traj.json', undefined],
  ['examples/runs/swe-agent-0/doubao-pro-128k/fasterxml__jackson-databind-4486.traj', 'doubao-pro-128k'],
  ['examples/runs/openhands/claude-3.5-sonnet/django__django-11099.json', 'claude-3.5-sonnet'],
  ['examples/runs/mini-swe-agent/deepseek_chat_dev/pylint-dev__astroid-1196.traj.json', undefined],
] as const;

let dir: string;
let app: Running;
let browser: Browser;
let page: Page;
const sessions: Array<{ session: string; task: string }> = [];

/** What a cell or container measured: its scroll width against its box. */
interface Widths {
  scrollWidth: number;
  clientWidth: number;
}

beforeAll(async () => {
  if (webRoot() === undefined) throw new Error('dist/web is missing: run `npm run build` before the browser tests');
  if (!existsSync(CHROMIUM)) throw new Error(`no Chromium at ${CHROMIUM}: apt-get install chromium (or set STEPLENS_CHROMIUM)`);
  dir = await mkdtemp(path.join(os.tmpdir(), 'steplens-layout-'));
  app = await startApp({ dataDir: dir, seedDirs: [path.join(ROOT, 'data/example')] });
  const c = await Client.connect(app.wsUrl);
  for (const [file, model] of RUNS) {
    const text = readFileSync(path.join(ROOT, file), 'utf8');
    const parsed = parseTrajectoryText(text, 'auto', file);
    if (!parsed.ok) throw parsed.error;
    const { format, meta } = parsed.value;
    const task = path.basename(file).replace(/\.traj(\.json)?$|\.json$/, '');
    // Server-made ids look like this: the widest a session column gets.
    const session = `s-${randomBytes(16).toString('hex')}`;
    sessions.push({ session, task });
    c.send({ type: 'start', session, task, format, agent: meta.agent ?? format, model: meta.model ?? model });
    getParser(format)
      .events(JSON.parse(text))
      .forEach((step, seq) => c.send({ type: 'step', session, seq, step }));
  }
  await c.sync();
  c.close();
  browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: ['--no-sandbox', '--disable-gpu'] });
  page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await app?.app.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

const widths = (els: unknown[]): Widths[] => els.map((e) => ({ scrollWidth: (e as Widths).scrollWidth, clientWidth: (e as Widths).clientWidth }));

describe('the web view at 1400 px', () => {
  it('fits the sessions table, every column, in the window; no cell draws past its edge', async () => {
    await page.goto(`${app.url}/`);
    await page
      .locator('tr[data-session]')
      .nth(RUNS.length - 1)
      .waitFor();
    await expect.poll(() => page.locator('table.sessions tbody tr td.num').first().textContent()).not.toBe('0');
    const [wrap] = await page.locator('.table-wrap').evaluateAll(widths);
    expect(wrap!.scrollWidth, 'the table is wider than its frame (scrolls sideways)').toBeLessThanOrEqual(wrap!.clientWidth);
    const [doc] = await page.locator('html').evaluateAll(widths);
    expect(doc!.scrollWidth).toBeLessThanOrEqual(1400);
    const cells = await page.locator('table.sessions td, table.sessions th').evaluateAll((els) =>
      els.map((e) => {
        const el = e as unknown as Widths & { textContent: string };
        return { text: el.textContent.slice(0, 60), over: el.scrollWidth - el.clientWidth };
      }),
    );
    expect(cells.filter((c) => c.over > 1)).toEqual([]);
    expect(cells.length).toBe(11 * (RUNS.length + 1));
  });

  it("draws no file label over a node circle or another label on a task's page", async () => {
    const pylint = sessions.find((s) => s.task === 'pylint-dev__astroid-1196')!;
    for (const url of [`/task/${pylint.task}?session=${pylint.session}`, '/task/django__django-11099']) {
      await page.goto(`${app.url}${url}`);
      await page.locator('.pta-node').nth(20).waitFor();
      // Every text outside the node glyphs: rotated ones are file labels, the rest the ×k counts.
      const texts = await page.locator('.pta svg text').evaluateAll((els) =>
        els.flatMap((e) => {
          const t = e as {
            textContent: string;
            closest(s: string): unknown;
            hasAttribute(n: string): boolean;
            getBBox(): { x: number; y: number; width: number; height: number };
            getCTM(): Record<'a' | 'b' | 'c' | 'd' | 'e' | 'f', number>;
          };
          if (t.closest('.pta-node') !== null) return [];
          const b = t.getBBox();
          const m = t.getCTM();
          const box: MeasuredBox = { text: t.textContent, box: [b.x, b.y, b.width, b.height], m: [m.a, m.b, m.c, m.d, m.e, m.f] };
          return [{ rotated: t.hasAttribute('transform'), box }];
        }),
      );
      const files = texts.filter((t) => t.rotated).map((t) => t.box);
      const refs = texts.filter((t) => !t.rotated).map((t) => t.box);
      const circles = await page.locator('.pta-node circle').evaluateAll((els) =>
        els.map((e): MeasuredCircle => {
          const c = e as { getAttribute(n: string): string | null };
          return { cx: Number(c.getAttribute('cx')), cy: Number(c.getAttribute('cy')), r: Number(c.getAttribute('r')) };
        }),
      );
      expect(files.length, url).toBeGreaterThan(20);
      expect(circles.length).toBeGreaterThan(50);
      expect(labelOverlaps(files, refs, circles), url).toEqual([]);
    }
  });
});
