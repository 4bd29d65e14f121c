/** `/session/:id`: one session, live while it runs, with its final report once it ends. */
import { trajectoryPanel, type TrajectoryPanel } from '../components/trajectory-view.js';
import { h, setText } from '../dom.js';
import { openLive, retryText } from '../live.js';
import { taskHref, type Page } from '../router.js';
import type { FinalMessage, LiveStep, ScoreMessage, Signal, TrajectoryView } from '../types.js';

export const sessionPage: Page = (main, params, query) => {
  const id = params.id ?? '';
  const tenant = query.get('tenant') ?? undefined;
  const state = h('span', { class: 'badge', role: 'status' }, 'loading…');
  const meta = h('p', { class: 'meta' });
  const body = h('div', {});
  const note = h('p', { class: 'note', hidden: true });
  main.append(h('div', { class: 'page-head' }, h('h1', {}, 'Session ', h('span', { class: 'mono' }, id)), state), meta, note, body);
  let panel: TrajectoryPanel | undefined;

  const showView = (v: TrajectoryView): void => {
    panel?.destroy();
    setText(state, v.state ?? 'ended');
    state.className = `badge state-${v.state ?? 'ended'}`;
    const of = tenant ?? v.tenant;
    meta.replaceChildren(
      'task ',
      // The session's tenant's view of the task (its own PTA, where the server keeps one per tenant).
      h('a', { href: taskHref(v.task, undefined, of) }, v.task),
      ' · ',
      // Scored against the prior: no path to draw (the link led to "No PTA for task ..."); the task link above says more.
      v.report.reference.kind === 'pta' ? h('a', { href: taskHref(v.task, id, of), class: 'strong' }, "path over the task's PTA") : 'scored against the prior (no PTA for this task)',
      ` · format ${v.format}`,
      v.agent ? ` · agent ${v.agent}` : '',
      v.model ? ` · model ${v.model}` : '',
    );
    panel = trajectoryPanel(v);
    body.replaceChildren(panel.el);
    panel.mount();
  };

  const stop = openLive({
    session: id,
    ...(tenant !== undefined ? { tenant } : {}),
    onStatus: (status, detail, retryMs) => {
      if (status === 'stopped') {
        if (panel === undefined) {
          setText(state, 'not held');
          state.className = 'badge state-ended';
        }
        note.hidden = false;
        setText(note, detail?.includes('no session') ? `The server holds no session ${id}: it never started, or it ended and was freed.` : `Live updates stopped: ${detail ?? ''}`);
      } else if (status === 'retrying' || status === 'refused') {
        // Nothing shown yet: not "loading…" for ever.
        if (panel === undefined) {
          setText(state, status === 'refused' ? 'feed refused' : 'not connected');
          state.className = 'badge live-retrying';
        }
        note.hidden = false;
        // Cut after the page showed the session: it keeps what it showed (a reconnect starts with a fresh view).
        const kept = panel !== undefined && status === 'retrying' ? ' This page keeps what it showed until then.' : '';
        setText(note, `${retryText(status, detail, retryMs)}${kept}`);
      } else note.hidden = true;
    },
    onEvent: (e) => {
      switch (e.type) {
        case 'view':
          showView(e as unknown as TrajectoryView);
          break;
        case 'score': {
          const f = e as unknown as ScoreMessage & { step?: LiveStep };
          const step = f.step ?? { kind: '?', tool: '?', text: '', failed: false };
          panel?.addStep({ t: f.t, seq: f.seq, stage: f.stage, score: f.score, reward: f.reward, tier: f.tier, ...step });
          break;
        }
        case 'signal':
          panel?.addSignal(e as unknown as Signal);
          break;
        case 'final':
          panel?.setFinal(e as unknown as FinalMessage);
          break;
        case 'session':
          setText(state, String(e.state));
          state.className = `badge state-${String(e.state)}`;
          break;
        case 'gone':
          note.hidden = false;
          setText(note, 'The server has freed this session (its resume window passed); this page keeps what it showed.');
          break;
      }
    },
  });
  return () => {
    stop();
    panel?.destroy();
  };
};
