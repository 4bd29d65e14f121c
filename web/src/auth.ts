/**
 * The bearer token, kept for this browser tab only (sessionStorage) and sent
 * in the Authorization header; never put in a URL (URLs end up in logs and
 * history). Whether the server wants one comes from the public /web/info.
 */

const KEY = 'steplens.token';

export type AuthMode = 'token' | 'open';

export function token(): string | undefined {
  return sessionStorage.getItem(KEY) ?? undefined;
}

export function setToken(value: string): void {
  sessionStorage.setItem(KEY, value);
}

export function forgetToken(): void {
  sessionStorage.removeItem(KEY);
}

export function authHeaders(): Record<string, string> {
  const t = token();
  return t === undefined ? {} : { authorization: `Bearer ${t}` };
}

export async function authMode(): Promise<AuthMode> {
  const res = await fetch('/web/info', { headers: { accept: 'application/json' } });
  if (!res.ok) throw new Error(`/web/info answered ${res.status}`);
  const body = (await res.json()) as { auth?: string };
  return body.auth === 'token' ? 'token' : 'open';
}
