/** `/task/:task[?session=ID]`: the task's PTA as a tree, with a session's aligned path over it. */
import { ptaTree } from '../components/pta-tree.js';
import { ApiError, getJson } from '../api.js';
import { h } from '../dom.js';
import { referenceText } from '../format.js';
import { sessionHref, type Page } from '../router.js';
import type { AlignmentBody, PtaJson, TrajectoryView } from '../types.js';

/** The PTA's facts: version, references, files (with how many nodes touch each). */
export function ptaFacts(pta: PtaJson): HTMLElement {
  const nodes = pta.nodes.filter((n) => n.state !== null);
  const perFile = new Map<string, number>();
  for (const n of nodes) if (n.state?.file) perFile.set(n.state.file, (perFile.get(n.state.file) ?? 0) + 1);
  const terminal = nodes.filter((n) => n.children.length === 0 || n.refs > n.children.reduce((a, c) => a + (pta.nodes[c]?.refs ?? 0), 0)).length;
  return h(
    'div',
    { class: 'pta-facts' },
    h(
      'dl',
      { class: 'facts' },
      h('dt', {}, 'version'),
      h('dd', {}, `v${pta.version} (each added reference makes a new version)`),
      ...(pta.scope !== undefined
        ? [h('dt', {}, 'whose'), h('dd', {}, pta.scope === 'tenant' ? "the tenant's own (grown by its references, used by its sessions only)" : 'shared (grown by operators)')]
        : []),
      h('dt', {}, 'references'),
      h('dd', {}, String(pta.references.length)),
      h('dt', {}, 'nodes'),
      h('dd', {}, `${nodes.length} (${terminal} terminal)`),
      h('dt', {}, 'equivalence τ'),
      h('dd', {}, String(pta.tau)),
    ),
    h(
      'details',
      {},
      h('summary', {}, `References (${pta.references.length})`),
      h(
        'table',
        { class: 'compact' },
        h('thead', {}, h('tr', {}, h('th', { scope: 'col' }, '#'), h('th', { scope: 'col' }, 'steps'), h('th', { scope: 'col' }, 'implementation targets'))),
        h(
          'tbody',
          {},
          ...pta.references.map((r, i) => h('tr', {}, h('td', { class: 'num' }, String(i + 1)), h('td', { class: 'num' }, String(r.length)), h('td', { class: 'num' }, String(r.implTargets)))),
        ),
      ),
    ),
    h('details', {}, h('summary', {}, `Files (${pta.files.length})`), h('ul', { class: 'files' }, ...pta.files.map((f) => h('li', {}, h('code', {}, f), ` · ${perFile.get(f) ?? 0} nodes`)))),
  );
}

export const taskPage: Page = (main, params, query) => {
  const task = params.task ?? '';
  const session = query.get('session') ?? undefined;
  const tenant = query.get('tenant') ?? undefined;
  const of = tenant !== undefined ? `?tenant=${encodeURIComponent(tenant)}` : '';
  const body = h('div', {}, h('p', { class: 'muted' }, 'loading…'));
  main.append(h('div', { class: 'page-head' }, h('h1', {}, 'Task ', h('span', { class: 'mono' }, task))), body);
  let alive = true;
  void (async () => {
    try {
      // The PTA the session's tenant sees (its own first, where the server keeps one per tenant).
      const pta = await getJson<PtaJson>(`/v1/tasks/${encodeURIComponent(task)}/pta${of}`);
      let alignment: AlignmentBody | undefined;
      let view: TrajectoryView | undefined;
      let problem: string | undefined;
      if (session !== undefined) {
        try {
          [alignment, view] = await Promise.all([
            getJson<AlignmentBody>(`/v1/sessions/${encodeURIComponent(session)}/alignment${of}`),
            getJson<TrajectoryView>(`/v1/sessions/${encodeURIComponent(session)}/steps${of}`),
          ]);
        } catch (error) {
          problem = error instanceof Error ? error.message : String(error);
        }
      }
      if (!alive) return;
      const scored = view?.report.reference;
      body.replaceChildren(
        ptaFacts(pta),
        h(
          'section',
          { 'aria-labelledby': 'tree-title' },
          h('h2', { id: 'tree-title' }, session ? ['Path of session ', h('a', { href: sessionHref(session, tenant), class: 'mono' }, session), ' over the PTA'] : 'PTA'),
          scored?.kind === 'pta' && scored.version !== pta.version
            ? h('p', { class: 'note' }, `The session was scored against ${referenceText(scored)}; the tree shows the current v${pta.version}.`)
            : null,
          scored?.kind === 'prior' ? h('p', { class: 'note' }, 'The session was scored against the prior (the task had no PTA then); the path is drawn over the current PTA.') : null,
          problem ? h('p', { class: 'error', role: 'alert' }, `Cannot draw the session's path: ${problem}`) : null,
          ptaTree(pta, { alignment, steps: view?.steps }),
        ),
      );
    } catch (error) {
      if (!alive) return;
      const missing = error instanceof ApiError && error.status === 404;
      body.replaceChildren(
        h(
          'p',
          { class: missing ? 'note' : 'error', role: 'alert' },
          missing
            ? `No PTA for task ${task} yet: its sessions are scored against the prior. A PTA grows from passing runs (steplens build-pta, POST /v1/tasks/${task}/references, or sessions started with learn).`
            : `Cannot load the PTA: ${error instanceof Error ? error.message : String(error)}`,
        ),
      );
    }
  })();
  return () => {
    alive = false;
  };
};
