/**
 * The live feed (`GET /v1/live`, Server-Sent Events) read with EventSource. EventSource cannot send the
 * bearer header and the token must never go in a URL, so each connection first asks for a ticket (`POST
 * /v1/tickets`, with the token in its header): good for this route (and this session) only, once, for a few
 * seconds. A ticket is taken when the feed opens, so every reconnect asks for a new one; each connection
 * starts with a fresh snapshot, so nothing is missed across a reconnect.
 *
 * EventSource cannot read why a feed was refused either (a status, a body): the ticket answer says it instead.
 * A feed the server would refuse now (the tenant's share of viewers, the server's: 429 / 503) gets no ticket
 * but that refusal, which the page shows while it tries again, less often each time.
 */
import { ApiError, postJson } from './api.js';

/**
 * `connecting`: the first try; `live`: the feed is open; `retrying`: it could not be reached or was cut;
 * `refused`: the server refused it for now (its message in `detail`); `stopped`: refused for good, no retry.
 */
export type LiveStatus = 'connecting' | 'live' | 'retrying' | 'refused' | 'stopped';

export interface LiveOptions {
  /** Which session's feed (`?session=`), of which tenant (`?tenant=`, operators); else the sessions list's. */
  session?: string;
  tenant?: string;
  onEvent: (event: { type: string } & Record<string, unknown>) => void;
  /** `detail`: why, in words (the server's message when it gave one); `retryMs`: when the next try is (`retrying`, `refused`). */
  onStatus?: (status: LiveStatus, detail?: string, retryMs?: number) => void;
}

/** Pauses between tries double up to these: a refused feed waits for a slot to free, so it asks less often. */
const MAX_PAUSE_MS = { retrying: 10_000, refused: 30_000 };

/** Opens the feed; the returned function closes it for good. */
export function openLive(o: LiveOptions): () => void {
  let stopped = false;
  let source: EventSource | undefined;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let pause = 1000;
  const query = new URLSearchParams();
  if (o.session !== undefined) query.set('session', o.session);
  if (o.tenant !== undefined) query.set('tenant', o.tenant);

  const retry = (status: 'retrying' | 'refused', detail: string): void => {
    source?.close();
    source = undefined;
    if (stopped) return;
    o.onStatus?.(status, detail, pause);
    timer = setTimeout(() => void open(), pause);
    pause = Math.min(pause * 2, MAX_PAUSE_MS[status]);
  };

  // Announced once: while retrying, the page keeps showing why the last try failed until one succeeds.
  o.onStatus?.('connecting');
  const open = async (): Promise<void> => {
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
      // Too many viewers (the tenant's share: 429; the server's: 503): a slot frees when another viewer closes.
      if (error instanceof ApiError && (error.code === 'quota_exceeded' || error.code === 'overloaded')) return retry('refused', error.message);
      return retry('retrying', error instanceof Error ? error.message : String(error));
    }
    if (stopped) return;
    const q = new URLSearchParams(query);
    q.set('ticket', ticket);
    const es = new EventSource(`/v1/live?${q.toString()}`);
    source = es;
    let opened = false;
    es.onopen = () => {
      opened = true;
      pause = 1000;
      o.onStatus?.('live');
    };
    es.onmessage = (m: MessageEvent<string>) => o.onEvent(JSON.parse(m.data) as { type: string } & Record<string, unknown>);
    // The ticket is spent: EventSource's own reconnect would be refused, so a new ticket is asked for instead.
    // Never opened: refused after the ticket (a slot taken meanwhile) or unreachable; the next ticket answer says which.
    es.onerror = () => retry('retrying', opened ? 'the feed was interrupted' : 'the feed could not be opened');
  };
  void open();
  return () => {
    stopped = true;
    clearTimeout(timer);
    source?.close();
  };
}

/** What a page says while its feed is not live and will be tried again (`retrying`, `refused`). */
export function retryText(status: 'retrying' | 'refused', detail: string | undefined, retryMs: number | undefined): string {
  const next = retryMs !== undefined ? ` Trying again in ${Math.round(retryMs / 1000)} s.` : ' Trying again.';
  return status === 'refused' ? `The server refused the live feed: ${detail ?? 'no reason given'}.${next}` : `The live feed cannot be reached: ${detail ?? 'no reason given'}.${next}`;
}
