/** `/`: every open or recently ended session, updated live from the feed, sortable and filterable. */
import { signalChip, tierChip } from '../components/chips.js';
import { fillRibbon, ribbon, stageLegend } from '../components/ribbon.js';
import { append, h, setText } from '../dom.js';
import { ago, one, referenceText, signalName } from '../format.js';
import { openLive, retryText, type LiveStatus } from '../live.js';
import { sessionHref, sessionKey, taskHref, type Page } from '../router.js';
import type { FinalMessage, ScoreMessage, SessionSummary, SignalMessage } from '../types.js';

const SIGNAL_KINDS = ['blind_retry', 'regression_loop', 'cycle', 'exploration_streak', 'low_score', 'budget'];
const TIER_ORDER = ['Ideal', 'Solid', 'Lucky', 'Partial-fail', 'Off-track'];
const STATE_ORDER = ['open', 'detached', 'ended'];
const RECENT = 40;
const PROJECTED = 'projected: no outcome reported yet, so the passing tier of the current score (the real tier comes with the outcome)';

type SortKey = 'session' | 'task' | 'agent' | 'steps' | 'total' | 'tier' | 'signal' | 'reference' | 'state' | 'started';

const COLUMNS: Array<{ key: SortKey | undefined; label: string; numeric?: boolean }> = [
  { key: 'session', label: 'Session' },
  { key: 'task', label: 'Task' },
  { key: 'agent', label: 'Agent / model' },
  { key: 'steps', label: 'Steps', numeric: true },
  { key: 'total', label: 'Score', numeric: true },
  { key: 'tier', label: 'Tier' },
  { key: undefined, label: 'Recent stages' },
  { key: 'signal', label: 'Last signal' },
  { key: 'reference', label: 'Reference' },
  { key: 'state', label: 'State' },
  { key: 'started', label: 'Started', numeric: true },
];

const agentOf = (s: SessionSummary): string => [s.agent, s.model].filter(Boolean).join(' / ');

function sortValue(s: SessionSummary, key: SortKey): string | number {
  switch (key) {
    case 'session':
      return s.session;
    case 'task':
      return s.task;
    case 'agent':
      return agentOf(s);
    case 'steps':
      return s.steps;
    case 'total':
      return s.total;
    case 'tier':
      return TIER_ORDER.indexOf(s.tier);
    case 'signal':
      return s.lastSignal ? `${s.lastSignal.severity === 'stop' ? 0 : 1}${s.lastSignal.kind}` : '9';
    case 'reference':
      return s.reference.kind === 'pta' ? -(s.reference.version ?? 0) : 1;
    case 'state':
      return STATE_ORDER.indexOf(s.state) * 1e15 - s.startedAt;
    case 'started':
      return s.startedAt;
  }
}

interface Row {
  tr: HTMLTableRowElement;
  cells: HTMLTableCellElement[];
  ribbon: HTMLElement;
  /** The session's tenant, shown when the list holds several. */
  tenant: HTMLElement;
  signalKey: string;
  tierKey: string;
}

export const sessionsPage: Page = (main) => {
  const sessions = new Map<string, SessionSummary>();
  const rows = new Map<string, Row>();
  let sort: { key: SortKey; desc: boolean } = { key: 'state', desc: false };

  const liveBadge = h('span', { class: 'badge', role: 'status' }, 'connecting…');
  const count = h('span', { class: 'muted' });
  const task = h('input', { id: 'f-task', type: 'search', placeholder: 'any task', autocomplete: 'off' });
  const agent = h('input', { id: 'f-agent', type: 'search', placeholder: 'any agent or model', autocomplete: 'off' });
  const signal = h(
    'select',
    { id: 'f-signal' },
    h('option', { value: '' }, 'any'),
    h('option', { value: 'none' }, 'no signal'),
    h('option', { value: 'some' }, 'any signal'),
    h('option', { value: 'stop' }, 'a stop signal'),
    h('option', { value: 'warn' }, 'a warn signal'),
    ...SIGNAL_KINDS.map((k) => h('option', { value: `kind:${k}` }, signalName(k))),
  );
  const headCells = COLUMNS.map((c) => {
    if (c.key === undefined) return h('th', { scope: 'col' }, c.label);
    const key = c.key;
    const button = h(
      'button',
      {
        type: 'button',
        class: 'sort',
        onclick: () => {
          sort = sort.key === key ? { key, desc: !sort.desc } : { key, desc: c.numeric === true };
          schedule();
        },
      },
      c.label,
      h('span', { class: 'arrow', 'aria-hidden': 'true' }),
    );
    return h('th', { scope: 'col', class: c.numeric ? 'num' : undefined, 'data-key': key }, button);
  });
  const tbody = h('tbody');
  const emptyCell = h('td', { colspan: COLUMNS.length }, 'Loading sessions…');
  const empty = h('tr', { class: 'empty' }, emptyCell);
  /** A snapshot arrived: until then an empty list means nothing is known yet, not "no sessions". */
  let loaded = false;
  /** Why the feed is not live (refused, unreachable), said where the list would be while it is empty. */
  let feedProblem: string | undefined;
  const showEmpty = (): void => {
    if (feedProblem !== undefined) emptyCell.replaceChildren(feedProblem);
    else if (!loaded) emptyCell.replaceChildren('Loading sessions…');
    else emptyCell.replaceChildren('No sessions yet. Sessions appear here as soon as an agent starts one on ', h('code', {}, '/v1/stream'), '.');
  };
  const table = h(
    'table',
    { class: 'sessions' },
    h('caption', { class: 'visually-hidden' }, 'Open and recently ended sessions; column headers sort'),
    h('thead', {}, h('tr', {}, ...headCells)),
    tbody,
  );

  main.append(
    h('div', { class: 'page-head' }, h('h1', {}, 'Live sessions'), liveBadge),
    h(
      'form',
      { class: 'filters', role: 'search', 'aria-label': 'Filter sessions', onsubmit: (e: Event) => e.preventDefault() },
      h('div', {}, h('label', { for: 'f-task' }, 'Task'), task),
      h('div', {}, h('label', { for: 'f-agent' }, 'Agent or model'), agent),
      h('div', {}, h('label', { for: 'f-signal' }, 'Last signal'), signal),
      count,
    ),
    stageLegend(),
    h('div', { class: 'table-wrap' }, table),
  );
  for (const el of [task, agent, signal]) el.addEventListener('input', () => schedule());

  const matches = (s: SessionSummary): boolean => {
    const t = task.value.trim().toLowerCase();
    const a = agent.value.trim().toLowerCase();
    const f = signal.value;
    if (t && !s.task.toLowerCase().includes(t)) return false;
    if (a && !agentOf(s).toLowerCase().includes(a)) return false;
    const last = s.lastSignal;
    if (f === 'none') return last === undefined;
    if (f === 'some') return last !== undefined;
    if (f === 'stop' || f === 'warn') return last?.severity === f;
    if (f.startsWith('kind:')) return last?.kind === f.slice(5);
    return true;
  };

  const makeRow = (s: SessionSummary): Row => {
    // Session, task and agent / model are the only columns of unbounded width: they wrap (anywhere, for ids without spaces).
    const cells = COLUMNS.map((c, i) => h('td', { class: c.numeric ? 'num' : i <= 1 ? 'id' : i === 2 ? 'wrap' : i === 7 ? 'sig' : undefined }));
    const tr = h('tr', { 'data-session': s.session, ...(s.tenant !== undefined ? { 'data-tenant': s.tenant } : {}) }, ...cells);
    const r = ribbon('');
    const tenant = h('span', { class: 'tenant muted', hidden: true }, s.tenant ?? '');
    cells[0]?.append(h('a', { href: sessionHref(s.session, s.tenant), class: 'mono' }, s.session), tenant);
    // The PTA of the session's tenant: an operator's list holds other tenants' sessions, scored against their own PTAs.
    cells[1]?.append(h('a', { href: taskHref(s.task, undefined, s.tenant) }, s.task));
    cells[6]?.append(r);
    // Agent over model; a model path (`openai/accounts/.../kimi-k2`) may break after each '/'.
    const model = (s.model ?? '').split('/').flatMap((part, i) => (i === 0 ? [part] : [h('wbr'), `/${part}`]));
    // Through dom's append, as every text the page shows (a tenant's name: its bidi controls shown as escapes).
    append(cells[2]!, s.agent ?? '', s.agent && s.model ? h('br') : '', h('span', { class: 'muted' }, ...model), !s.agent && !s.model && '–');
    return { tr, cells, ribbon: r, tenant, signalKey: '-', tierKey: '' };
  };

  const update = (row: Row, s: SessionSummary, tenants: boolean): void => {
    const c = row.cells;
    // An operator's list may hold several tenants' sessions (ids repeat across tenants): each row then names its tenant.
    row.tenant.hidden = !tenants;
    setText(c[3] as HTMLElement, String(s.steps));
    setText(c[4] as HTMLElement, one(s.total));
    // No step yet: no score to project a tier from. The tier is real only once the session ended with an outcome.
    const tier = s.steps === 0 && s.state !== 'ended' ? '' : s.tier;
    const projected = tier !== '' && (s.state !== 'ended' || s.passed === undefined);
    const tierKey = `${tier}${projected ? ' projected' : ''}`;
    if (row.tierKey !== tierKey) {
      row.tierKey = tierKey;
      c[5]?.replaceChildren(tier === '' ? '–' : tierChip(tier), projected ? h('span', { class: 'projected' }, 'projected') : '');
      if (projected) c[5]?.setAttribute('title', PROJECTED);
      else c[5]?.removeAttribute('title');
    }
    fillRibbon(row.ribbon, s.recentStages);
    const sig = s.lastSignal;
    const key = sig ? `${sig.severity}:${sig.kind}:${sig.t}` : '';
    if (row.signalKey !== key) {
      row.signalKey = key;
      c[7]?.replaceChildren(sig ? signalChip(sig) : '–');
      if (sig) c[7]?.setAttribute('title', `step ${sig.t}: ${sig.message}`);
    }
    setText(c[8] as HTMLElement, s.reference.kind === 'pta' ? `PTA v${s.reference.version ?? '?'}` : 'prior');
    c[8]?.setAttribute('title', referenceText(s.reference));
    setText(c[9] as HTMLElement, s.state);
    c[9]?.setAttribute('class', `state-${s.state}`);
    setText(c[10] as HTMLElement, ago(s.startedAt));
  };

  let pending = false;
  function schedule(): void {
    if (pending) return;
    pending = true;
    requestAnimationFrame(draw);
  }

  function draw(): void {
    pending = false;
    const list = [...sessions.values()].filter(matches);
    const dir = sort.desc ? -1 : 1;
    list.sort((a, b) => {
      const x = sortValue(a, sort.key),
        y = sortValue(b, sort.key);
      return (x < y ? -1 : x > y ? 1 : a.session < b.session ? -1 : 1) * dir;
    });
    for (const th of headCells) {
      const key = th.dataset.key;
      if (key === undefined) continue;
      if (key === sort.key) th.setAttribute('aria-sort', sort.desc ? 'descending' : 'ascending');
      else th.removeAttribute('aria-sort');
      setText(th.querySelector('.arrow')!, key === sort.key ? (sort.desc ? ' ▼' : ' ▲') : '');
    }
    const wanted: HTMLTableRowElement[] = [];
    const tenants = new Set([...sessions.values()].map((s) => s.tenant)).size > 1;
    for (const s of list) {
      let row = rows.get(sessionKey(s));
      if (!row) rows.set(sessionKey(s), (row = makeRow(s)));
      update(row, s, tenants);
      wanted.push(row.tr);
    }
    for (const [id, row] of rows)
      if (!sessions.has(id)) {
        row.tr.remove();
        rows.delete(id);
      }
    if (wanted.length === 0) {
      for (const tr of [...tbody.children]) if (tr !== empty) tr.remove();
      if (empty.parentNode !== tbody) tbody.append(empty);
    } else {
      empty.remove();
      // Move rows only where the order changed, so a focused link keeps its focus.
      wanted.forEach((tr, i) => {
        if (tbody.children[i] !== tr) tbody.insertBefore(tr, tbody.children[i] ?? null);
      });
      while (tbody.children.length > wanted.length) tbody.lastElementChild?.remove();
    }
    const open = [...sessions.values()].filter((s) => s.state !== 'ended').length;
    setText(count, loaded ? `${list.length} shown of ${sessions.size} (${open} open)` : '');
  }

  /** The row a frame is about: frames carry `tenant` in an operator's feed; otherwise the only row with that id. */
  const rowOf = (f: { session: string; tenant?: string }): SessionSummary | undefined => {
    const exact = sessions.get(sessionKey(f));
    if (exact !== undefined || f.tenant !== undefined) return exact;
    for (const s of sessions.values()) if (s.session === f.session) return s;
    return undefined;
  };

  const onScore = (f: ScoreMessage): void => {
    const s = rowOf(f);
    if (!s) return;
    s.steps = Math.max(s.steps, f.t + 1);
    s.total = f.score.total;
    if (s.state !== 'ended') s.tier = f.tier;
    s.recentStages = (s.recentStages + f.stage).slice(-RECENT);
    s.reference = f.reference;
  };

  const stop = openLive({
    onStatus: (status: LiveStatus, detail?: string, retryMs?: number) => {
      const badge: Record<LiveStatus, string> = { live: '● live', connecting: 'connecting…', retrying: 'reconnecting…', refused: `feed refused: ${detail ?? ''}`, stopped: 'stopped' };
      setText(liveBadge, badge[status]);
      liveBadge.className = `badge live-${status}`;
      // Not "No sessions yet": refused for good (a `metrics` token, a revoked one), or for now (too many viewers), or unreachable.
      if (status === 'retrying' || status === 'refused') feedProblem = retryText(status, detail, retryMs);
      else if (status === 'stopped') feedProblem = `This token cannot list sessions: ${detail ?? 'refused'}`;
      else feedProblem = undefined;
      liveBadge.title = feedProblem ?? detail ?? '';
      showEmpty();
    },
    onEvent: (e) => {
      switch (e.type) {
        case 'snapshot':
          loaded = true;
          showEmpty();
          sessions.clear();
          for (const s of e.sessions as SessionSummary[]) sessions.set(sessionKey(s), s);
          break;
        case 'session': {
          const { type: _t, ...s } = e as unknown as SessionSummary & { type: string };
          sessions.set(sessionKey(s), s);
          break;
        }
        case 'score':
          onScore(e as unknown as ScoreMessage);
          break;
        case 'signal': {
          const f = e as unknown as SignalMessage;
          const s = rowOf(f);
          if (s) s.lastSignal = { kind: f.kind, severity: f.severity, t: f.t, message: f.message };
          break;
        }
        case 'final': {
          const f = e as unknown as FinalMessage;
          const s = rowOf(f);
          if (s) Object.assign(s, { state: 'ended', total: f.score.total, tier: f.tier, steps: f.steps, ...(f.passed !== undefined ? { passed: f.passed } : {}) });
          break;
        }
        case 'gone': {
          const s = rowOf(e as unknown as { session: string; tenant?: string });
          if (s) sessions.delete(sessionKey(s));
          break;
        }
      }
      schedule();
    },
  });
  const clock = setInterval(schedule, 10_000);
  schedule();
  return () => {
    stop();
    clearInterval(clock);
  };
};
