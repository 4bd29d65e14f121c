/**
 * The web view of a server with several tenants, in Chromium (review s43, findings 6 and 7): a tab past its
 * tenant's live-viewer share says the server refused the feed and why (not "No sessions yet", not
 * "reconnecting…" for ever) and gets the list once a slot frees; an operator's task links carry the session's
 * tenant and open that tenant's own PTA; a tier no outcome decided is labelled projected.
 * Needs `npm run build` (dist/web) and /usr/bin/chromium (or STEPLENS_CHROMIUM).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { BrowserContext } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, ASTROID, Client, readDoc, readEvents, startApp, type Running } from '../server/helpers.js';
import { launchChromium, shot, signIn, watchedPage } from './chromium.js';

/** The refused ticket answer is logged by Chromium as a failed load. */
const REFUSED_LOAD = /status of 429/;

let dir: string;
let srv: Running;
let browser: BrowserContext;
let team: Client;
const problems: string[] = [];

/** Streams the first `n` events of `file` as `session` of client `by` (team-a's); ends it (with `passed`, when given) if `end`. */
async function stream(session: string, file: string, n: number, end?: { passed?: boolean }, by: Client = team): Promise<void> {
  const events = (await readEvents(file)).slice(0, n);
  by.send({ type: 'start', session, task: ASTROID.task, format: 'mini-swe-agent', agent: 'mini-swe-agent 1.1', model: 'deepseek/deepseek-chat' });
  await by.nextOf('started', session);
  events.forEach((step, seq) => by.send({ type: 'step', session, seq, step }));
  if (end?.passed !== undefined) by.send({ type: 'outcome', session, passed: end.passed });
  if (end !== undefined) {
    by.send({ type: 'end', session });
    await by.nextOf('final', session);
  } else await by.sync();
}

beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'steplens-web-tenants-'));
  srv = await startApp({
    dataDir: path.join(dir, 'data'),
    // One live viewer per agent tenant: the second tab of team-a is refused (the default share is 16).
    limits: { liveViewersPerTenant: 1 },
    tokens: [
      { token: 'view-op', tenant: 'platform', role: 'operator' },
      { token: 'view-a', tenant: 'team-a' },
      { token: 'view-b', tenant: 'team-b' },
    ],
  });
  // team-a grows its own PTA of the task (2 references; nobody else has one), then its sessions are scored against it.
  for (const file of [ASTROID.passA, ASTROID.passB]) {
    const res = await fetch(`${srv.url}/v1/tasks/${ASTROID.task}/references`, {
      method: 'POST',
      headers: { ...bearer('view-a'), 'content-type': 'application/json' },
      body: JSON.stringify({ trajectory: await readDoc(file) }),
    });
    if (res.status !== 201) throw new Error(`reference refused: ${res.status} ${await res.text()}`);
  }
  team = await Client.connect(srv.wsUrl, bearer('view-a'));
  await stream('a-open', ASTROID.fail, 30);
  await stream('a-no-outcome', ASTROID.passA, 60, {});
  await stream('a-failed', ASTROID.fail, 60, { passed: false });
  // team-b has no PTA of the task: its session is scored against the prior.
  const teamB = await Client.connect(srv.wsUrl, bearer('view-b'));
  await stream('b-prior', ASTROID.fail, 20, { passed: false }, teamB);
  teamB.close();
  browser = await launchChromium(path.join(dir, 'profile'));
}, 60_000);

afterAll(async () => {
  await browser?.close();
  team?.close();
  await srv?.app.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe('the web view with several tenants', () => {
  it('a tab refused by its tenant\'s viewer share says so and why, not "No sessions yet", and gets the list once a slot frees', async () => {
    const first = await watchedPage(browser, problems);
    await signIn(first, srv.url, 'view-a');
    await first.locator('.badge.live-live').waitFor();
    await first.locator('tr[data-session="a-open"]').waitFor();

    const second = await watchedPage(browser, problems, REFUSED_LOAD);
    await signIn(second, srv.url, 'view-a');
    const badge = second.locator('.page-head .badge');
    await expect.poll(() => badge.textContent()).toBe('feed refused: this tenant already has 1 live viewer, its limit: close some first');
    const empty = second.locator('tr.empty td');
    await expect.poll(() => empty.textContent()).toMatch(/^The server refused the live feed: this tenant already has 1 live viewer, its limit: close some first\. Trying again in \d+ s\.$/);
    expect(await second.getByText('No sessions yet').count()).toBe(0);
    await shot(second, 'tenants-refused-list');

    // A session's page of the same tab: refused too, said at once (not "loading…" for ever).
    await second.goto(`${srv.url}/session/a-open`);
    await expect.poll(() => second.locator('.page-head .badge').textContent()).toBe('feed refused');
    await expect.poll(() => second.locator('p.note').textContent()).toMatch(/^The server refused the live feed: this tenant already has 1 live viewer.*Trying again in \d+ s\.$/);
    await shot(second, 'tenants-refused-session');

    // The first tab closes: its slot is free and the refused one, still trying, opens its feed.
    await first.close();
    await second.locator('.badge.state-open').waitFor({ timeout: 15_000 });
    await expect.poll(() => second.locator('p.note').isHidden()).toBe(true);
    await second.goto(`${srv.url}/`);
    await second.locator('tr[data-session="a-open"]').waitFor({ timeout: 15_000 });
    await second.close();
  }, 60_000);

  it("an operator's task links carry the session's tenant and open that tenant's own PTA", async () => {
    const page = await watchedPage(browser, problems);
    await signIn(page, srv.url, 'view-op');
    const row = page.locator('tr[data-session="a-open"][data-tenant="team-a"]');
    await row.waitFor();
    const taskLink = row.locator('td').nth(1).locator('a');
    const href = `/task/${ASTROID.task}?tenant=team-a`;
    expect(await taskLink.getAttribute('href')).toBe(href);
    await expect.poll(() => row.locator('td').nth(8).textContent()).toBe('PTA v2');

    await taskLink.click();
    await page.getByRole('heading', { name: `Task ${ASTROID.task}` }).waitFor();
    await expect.poll(() => page.locator('.pta-facts').textContent()).toContain("v2 (each added reference makes a new version)whosethe tenant's own");
    expect(await page.getByText('No PTA for task').count()).toBe(0);
    await shot(page, 'tenants-operator-task');

    // The session's page: its "task" link the same, beside the path over the PTA.
    await page.goto(`${srv.url}/session/a-open?tenant=team-a`);
    const meta = page.locator('p.meta a');
    await expect.poll(() => meta.first().getAttribute('href')).toBe(href);
    expect(await meta.nth(1).getAttribute('href')).toBe(`/task/${ASTROID.task}?session=a-open&tenant=team-a`);
    await meta.first().click();
    await expect.poll(() => page.locator('.pta-facts').textContent()).toContain("whosethe tenant's own");
    await page.close();
  });

  it('a session scored against the prior offers no "path over the task\'s PTA" (there is none to draw), and says so', async () => {
    const page = await watchedPage(browser, problems);
    await signIn(page, srv.url, 'view-b');
    await page.goto(`${srv.url}/session/b-prior`);
    await page.getByRole('heading', { name: /Final report/ }).waitFor();
    const meta = page.locator('p.meta');
    await expect.poll(() => meta.textContent()).toContain('scored against the prior (no PTA for this task)');
    expect(await page.getByRole('link', { name: "path over the task's PTA" }).count()).toBe(0);
    expect(await meta.locator('a').first().getAttribute('href')).toBe(`/task/${ASTROID.task}?tenant=team-b`);
    await page.close();
  });

  it('labels a tier no outcome decided as projected, in the list and on the session page', async () => {
    const page = await watchedPage(browser, problems);
    await signIn(page, srv.url, 'view-op');
    const tierOf = (id: string) => page.locator(`tr[data-session="${id}"] td`).nth(5);
    await expect.poll(() => tierOf('a-no-outcome').textContent()).toMatch(/^(Ideal|Solid|Lucky)projected$/);
    await expect.poll(() => tierOf('a-open').textContent()).toMatch(/projected$/);
    await expect.poll(() => tierOf('a-failed').textContent()).toMatch(/^(Partial-fail|Off-track)$/);
    await shot(page, 'tenants-projected-list');

    await page.goto(`${srv.url}/session/a-no-outcome?tenant=team-a`);
    await page.getByRole('heading', { name: /Final report/ }).waitFor();
    await expect.poll(() => page.locator('.stats .stat-label').nth(1).textContent()).toBe('projected tier');
    const facts = page.locator('dl.facts');
    await expect.poll(() => facts.textContent()).toMatch(/projected tier(Ideal|Solid|Lucky) \(outcome unknown: the tier this score gets if the run passed\)/);
    await shot(page, 'tenants-projected-session');

    // An outcome makes the session's tier real; a step scored before the outcome came still carries its projection.
    await page.goto(`${srv.url}/session/a-failed?tenant=team-a`);
    await page.getByRole('heading', { name: /Final report/ }).waitFor();
    await expect.poll(() => page.locator('.stats .stat-label').nth(1).textContent()).toBe('tier');
    expect(await page.locator('dl.facts').textContent()).toMatch(/tier(Partial-fail|Off-track)/);
    expect(await page.locator('dl.facts').textContent()).not.toContain('projected');
    expect(await page.locator('.detail').textContent()).toMatch(/projected tier (Ideal|Solid|Lucky)/);
    await page.close();
  });

  it('logged no console error on any page', () => {
    expect(problems).toEqual([]);
  });
});
