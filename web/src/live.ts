/**
 * The live feed (`GET /v1/live`, Server-Sent Events) read with EventSource. EventSource cannot send the
 * bearer header and the token must never go in a URL, so each connection first asks for a ticket (`POST
 * /v1/tickets`, with the token in its header): good for this route (and this session) only, once, for a few
 * seconds. A ticket is taken when the feed opens, so every reconnect asks for a new one; each connection
 * starts with a fresh snapshot, so nothing is missed across a reconnect.
 */
import { ApiError, postJson } from './api.js';

export type LiveStatus = 'connecting' | 'live' | 'retrying' | 'stopped';

export interface LiveOptions {
  /** Which session's feed (`?session=`), of which tenant (`?tenant=`, operators); else the sessions list's. */
  session?: string;
  tenant?: string;
  onEvent: (event: { type: string } & Record<string, unknown>) => void;
  onStatus?: (status: LiveStatus, detail?: string) => void;
}

/** Opens the feed; the returned function closes it for good. */
export function openLive(o: LiveOptions): () => void {
  let stopped = false;
  let source: EventSource | undefined;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let pause = 1000;
  const query = new URLSearchParams();
  if (o.session !== undefined) query.set('session', o.session);
  if (o.tenant !== undefined) query.set('tenant', o.tenant);

  const retry = (detail: string): void => {
    source?.close();
    source = undefined;
    if (stopped) return;
    o.onStatus?.('retrying', detail);
    timer = setTimeout(() => void open(), pause);
    pause = Math.min(pause * 2, 10_000);
  };

  const open = async (): Promise<void> => {
    o.onStatus?.('connecting');
    let ticket: string;
    try {
      ({ ticket } = await postJson<{ ticket: string }>('/v1/tickets', {
        route: '/v1/live',
        ...(o.session !== undefined ? { session: o.session } : {}),
        ...(o.tenant !== undefined ? { tenant: o.tenant } : {}),
      }));
    } catch (error) {
      // A refused token or a session that is gone will not get better by retrying.
      if (error instanceof ApiError && (error.status === 401 || error.status === 403 || error.status === 404)) {
        stopped = true;
        o.onStatus?.('stopped', error.message);
        return;
      }
      return retry(error instanceof Error ? error.message : String(error));
    }
    if (stopped) return;
    const q = new URLSearchParams(query);
    q.set('ticket', ticket);
    const es = new EventSource(`/v1/live?${q.toString()}`);
    source = es;
    es.onopen = () => {
      pause = 1000;
      o.onStatus?.('live');
    };
    es.onmessage = (m: MessageEvent<string>) => o.onEvent(JSON.parse(m.data) as { type: string } & Record<string, unknown>);
    // The ticket is spent: EventSource's own reconnect would be refused, so a new ticket is asked for instead.
    es.onerror = () => retry('the feed was interrupted');
  };
  void open();
  return () => {
    stopped = true;
    clearTimeout(timer);
    source?.close();
  };
}
