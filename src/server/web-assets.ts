/**
 * The built web view (`dist/web`, made by `npm run build` with Vite): the page
 * itself at `/` and its client-side routes, and its hashed assets under
 * `/assets/` (cached for good: a new build has new names). Nothing is fetched
 * from elsewhere, so the view works offline.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply } from 'fastify';

/** Paths of the page (each answers index.html; the page routes on its own). */
const PAGE = /^\/(?:|index\.html|session\/[^/]+|task\/[^/]+|score|calibration)$/;

/** Requests that need no token: the page and its assets (the page then asks for a token), and the auth mode. */
export function isPublicWebPath(route: string): boolean {
  return PAGE.test(route) || route.startsWith('/assets/') || route === '/favicon.svg' || route === '/web/info';
}

/** The folder holding the built view: `dist/web`, seen from `dist/src/server` (built) or `src/server` (tests run from sources). */
export function webRoot(): string | undefined {
  const up = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
  const dir = path.basename(up) === 'dist' ? path.join(up, 'web') : path.join(up, 'dist', 'web');
  return existsSync(path.join(dir, 'index.html')) ? dir : undefined;
}

/**
 * Security headers of the page: scripts, styles and data only from this
 * server (blob: images are the trade-off chart fetched with the token), and
 * no framing, no referrer.
 */
const PAGE_HEADERS = {
  'content-security-policy':
    "default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' blob: data:; connect-src 'self'; font-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'",
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'cache-control': 'no-cache',
};

/** Serves the view from `root`; without a build, the page routes say how to make one. */
export async function registerWebAssets(app: FastifyInstance, root: string | undefined): Promise<void> {
  const page = (reply: FastifyReply, html: string): FastifyReply => reply.headers(PAGE_HEADERS).type('text/html; charset=utf-8').send(html);
  const routes = ['/', '/index.html', '/session/:id', '/task/:task', '/score', '/calibration'];
  if (root === undefined) {
    app.log.warn('web view not built (no dist/web/index.html): run `npm run build`');
    const missing =
      '<!doctype html><html lang="en"><meta charset="utf-8"><title>steplens</title><p>The steplens web view is not built: run <code>npm run build</code>. The API under /v1 works.</p></html>';
    for (const route of routes) app.get(route, (_req, reply) => page(reply, missing));
    return;
  }
  const index = readFileSync(path.join(root, 'index.html'), 'utf8');
  await app.register(fastifyStatic, {
    root: path.join(root, 'assets'),
    prefix: '/assets/',
    index: false,
    immutable: true,
    maxAge: '365d',
    decorateReply: false,
    setHeaders: (res) => {
      res.setHeader('x-content-type-options', 'nosniff');
    },
  });
  const favicon = path.join(root, 'favicon.svg');
  if (existsSync(favicon)) {
    const svg = readFileSync(favicon);
    app.get('/favicon.svg', (_req, reply) => reply.type('image/svg+xml').header('cache-control', 'max-age=86400').send(svg));
  }
  for (const route of routes) app.get(route, (_req, reply) => page(reply, index));
}
