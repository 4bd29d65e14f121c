/** Client-side routes: links within the page navigate without a reload (history API). */

export type Page = (main: HTMLElement, params: Record<string, string>, query: URLSearchParams) => (() => void) | void;

interface Route {
  pattern: RegExp;
  keys: string[];
  page: Page;
  nav: string;
}

const routes: Route[] = [];
let cleanup: (() => void) | void;
let main: HTMLElement;

export function route(path: string, nav: string, page: Page): void {
  const keys: string[] = [];
  const pattern = new RegExp(
    `^${path.replace(/:(\w+)/g, (_m, k: string) => {
      keys.push(k);
      return '([^/]+)';
    })}$`,
  );
  routes.push({ pattern, keys, page, nav });
}

/** Stops the current page (its feeds and timers). */
export function stopPage(): void {
  if (typeof cleanup === 'function') cleanup();
  cleanup = undefined;
}

/** Renders the page of the current location. */
export function render(): void {
  stopPage();
  main.replaceChildren();
  const path = location.pathname;
  for (const r of routes) {
    const m = r.pattern.exec(path);
    if (!m) continue;
    const params: Record<string, string> = {};
    r.keys.forEach((k, i) => (params[k] = decodeURIComponent(m[i + 1] ?? '')));
    for (const a of document.querySelectorAll<HTMLAnchorElement>('nav a[data-nav]')) {
      if (a.dataset.nav === r.nav) a.setAttribute('aria-current', 'page');
      else a.removeAttribute('aria-current');
    }
    cleanup = r.page(main, params, new URLSearchParams(location.search));
    return;
  }
  main.textContent = 'No such page.';
}

export function navigate(href: string): void {
  history.pushState(null, '', href);
  render();
  main.focus({ preventScroll: true });
  window.scrollTo(0, 0);
}

/** Starts routing in `root`: same-origin link clicks are handled here, back/forward re-render. */
export function startRouter(root: HTMLElement): void {
  main = root;
  document.addEventListener('click', (e) => {
    const a = (e.target as Element | null)?.closest?.('a');
    if (!a || a.target || a.hasAttribute('download') || e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
    const url = new URL(a.href, location.href);
    if (url.origin !== location.origin || url.pathname.startsWith('/v1/') || url.pathname.startsWith('/assets/')) return;
    e.preventDefault();
    navigate(url.pathname + url.search);
  });
  window.addEventListener('popstate', render);
  render();
}

/** `?tenant=T` (with its leading `?` or `&`), when a session names its tenant: an operator's view holds every tenant's sessions. */
const tenantQuery = (lead: '?' | '&', tenant: string | undefined): string => (tenant ? `${lead}tenant=${encodeURIComponent(tenant)}` : '');

/** The path of a session's page. */
export const sessionHref = (id: string, tenant?: string): string => `/session/${encodeURIComponent(id)}${tenantQuery('?', tenant)}`;
/**
 * The path of a task's page: its PTA as `tenant` sees it (with or without a session's path over it). The tenant goes
 * in with or without a session: an operator otherwise lands on its own view of the task, not the one the session used.
 */
export const taskHref = (task: string, session?: string, tenant?: string): string =>
  `/task/${encodeURIComponent(task)}${session ? `?session=${encodeURIComponent(session)}${tenantQuery('&', tenant)}` : tenantQuery('?', tenant)}`;
/** A session's id in the list: its tenant and id (ids repeat across tenants). */
export const sessionKey = (s: { session: string; tenant?: string | undefined }): string => `${s.tenant ?? ''}:${s.session}`;
