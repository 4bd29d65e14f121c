/**
 * `GET /v1/sessions`: one page of the sessions a token may see. A page of 1,000 rows is ~1.1 MB of JSON and ~35 ms
 * of summaries; built in one go per request, one tenant polling it 32 at a time held another client's ping at a
 * median of 111 ms and up to 1.9 s (red-team probe, stop 54; docs/reliability.md T40). Now a page's rows are
 * summarised {@link LIST_ROWS_PER_TURN} a turn and its JSON written in pieces, one page at a time, and a tenant has
 * at most a few pages queued or being built (the step views' queue discipline, step-views.ts): past it 429.
 */
import { setImmediate as nextTurn } from 'node:timers/promises';
import type { ScoringConfig } from '../core/config.js';
import type { SessionSummary } from '../protocol/view-bodies.js';
import { objectJsonChunks } from '../store/pta-text.js';
import type { Session } from './session.js';
import { sessionSummary } from './session-view.js';

/** Rows summarised between two turns of the event loop (~35 µs a row). */
export const LIST_ROWS_PER_TURN = 100;

export interface PageQuery {
  /** Every tenant's sessions (an operator without `?tenant=`), else `tenant`'s. */
  all: boolean;
  tenant: string | undefined;
  /** Sessions with an ordinal above this (the previous page's `next`). */
  after: number;
  limit: number;
}

/** The sessions of one page, read now (in the registry's order), and the `next` of the page after it if any. */
export function sessionPage(sessions: Iterable<Session>, q: PageQuery): { rows: Session[]; next?: string } {
  const rows: Session[] = [];
  for (const s of sessions) {
    if (s.ordinal <= q.after || (!q.all && s.tenant !== q.tenant)) continue;
    if (rows.length === q.limit) return { rows, next: String(rows[rows.length - 1]!.ordinal) }; // length === limit >= 1
    rows.push(s);
  }
  return { rows };
}

/** The page's JSON, `{ sessions, next? }` as `JSON.stringify` writes it, its rows summarised in slices (each as it is when reached). */
export async function sessionPageJson(page: { rows: readonly Session[]; next?: string }, config: ScoringConfig): Promise<Buffer> {
  const sessions: SessionSummary[] = [];
  for (let i = 0; i < page.rows.length; i++) {
    sessions.push(sessionSummary(page.rows[i]!, config));
    if ((i + 1) % LIST_ROWS_PER_TURN === 0) await nextTurn();
  }
  const parts: Buffer[] = [];
  for await (const piece of objectJsonChunks({ sessions, ...(page.next !== undefined ? { next: page.next } : {}) })) parts.push(Buffer.from(piece, 'utf8'));
  return Buffer.concat(parts);
}
