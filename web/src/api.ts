/** Calls to the server's API with the token; a refused token sends the page back to the token form. */
import { authHeaders } from './auth.js';

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

let onUnauthorized: () => void = () => undefined;

/** What to do when the server answers 401 (show the token form). */
export function whenUnauthorized(handler: () => void): void {
  onUnauthorized = handler;
}

async function errorOf(res: Response): Promise<ApiError> {
  let code = 'http_error';
  let message = `${res.status} ${res.statusText}`;
  try {
    const body = (await res.json()) as { error?: { code?: string; message?: string } };
    if (body.error?.code) code = body.error.code;
    if (body.error?.message) message = body.error.message;
  } catch {
    // not JSON: keep the status line
  }
  if (res.status === 401) onUnauthorized();
  return new ApiError(res.status, code, message);
}

/** A response that is OK, or an ApiError carrying the server's `{error: {code, message}}`. */
export async function request(path: string, init: RequestInit = {}): Promise<Response> {
  const res = await fetch(path, { ...init, headers: { accept: 'application/json', ...authHeaders(), ...(init.headers as Record<string, string> | undefined) } });
  if (!res.ok) throw await errorOf(res);
  return res;
}

export async function getJson<T>(path: string): Promise<T> {
  return (await (await request(path)).json()) as T;
}

export async function postJson<T>(path: string, body: unknown): Promise<T> {
  const res = await request(path, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  return (await res.json()) as T;
}
