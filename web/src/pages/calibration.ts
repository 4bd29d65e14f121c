/** `/calibration`: the last calibration's trade-off chart and the policy it chose (serve --calibration DIR). */
import { ApiError, getJson, request } from '../api.js';
import { h } from '../dom.js';
import { pct } from '../format.js';
import type { Page } from '../router.js';

interface Calibration {
  configured: true;
  writtenAt: string;
  policy: unknown;
  maxFalseStop?: number;
  confidence?: number;
  warnOnly?: boolean;
  note?: string;
  check?: string;
  runs?: { passing?: number; failing?: number };
}

/** What the written policy may stop, in the words of calibrate's own check (a warn-only policy stops no run). */
function boundText(c: Calibration): string {
  const bound =
    c.maxFalseStop !== undefined ? `the ${c.confidence !== undefined ? `${pct(c.confidence)} ` : ''}upper bound of the share of passing runs stopped at most ${pct(c.maxFalseStop)}` : undefined;
  if (c.warnOnly) {
    const why = c.note ? `${c.note.charAt(0).toUpperCase()}${c.note.slice(1)}` : bound !== undefined ? `No stop met ${bound}` : undefined;
    return `The written policy only warns: it stops no run.${why !== undefined ? ` ${why}.` : ''}`;
  }
  if (bound === undefined) return '';
  return `Its stops were chosen with ${bound}${c.check === 'none' ? ', in-sample only: not confirmed on held-out runs (calibrate --split none)' : ''}.`;
}

export const calibrationPage: Page = (main) => {
  const body = h('div', {}, h('p', { class: 'muted' }, 'loading…'));
  main.append(h('div', { class: 'page-head' }, h('h1', {}, 'Early-stop calibration')), body);
  let url: string | undefined;
  let alive = true;
  void (async () => {
    try {
      const c = await getJson<Calibration | { configured: false }>('/v1/calibration');
      if (!c.configured) {
        body.replaceChildren(
          h(
            'p',
            { class: 'note' },
            'No calibration is configured. Run ',
            h('code', {}, 'steplens calibrate --out-dir DIR ...'),
            ' on runs with known outcomes, then start the server with ',
            h('code', {}, 'steplens serve --calibration DIR'),
            ' to show its trade-off chart here.',
          ),
        );
        return;
      }
      // The chart is fetched with the token and shown from memory: an <img src> could not send it.
      const blob = await (await request('/v1/calibration/tradeoff.svg', { headers: { accept: 'image/svg+xml' } })).blob();
      if (!alive) return;
      url = URL.createObjectURL(blob);
      body.replaceChildren(
        h('p', {}, `Written ${new Date(c.writtenAt).toLocaleString()}`, c.runs ? ` from ${c.runs.passing ?? '?'} passing and ${c.runs.failing ?? '?'} failing runs` : '', '.'),
        h('p', { class: c.warnOnly ? 'note' : '' }, boundText(c)),
        h(
          'figure',
          { class: 'card' },
          h('img', {
            src: url,
            alt: 'Trade-off chart, in-sample and pooled over sources: share of passing runs stopped against share of failing-run tokens saved, per policy on the Pareto front, with the default and the chosen policy marked. The table form is tradeoff.csv in the calibration directory.',
          }),
          h(
            'figcaption',
            {},
            'The trade-off chart steplens calibrate drew (tradeoff.svg). In-sample: each point is measured on the runs the policies were chosen on, every source pooled; the held-out check is calibrate --split.',
          ),
        ),
        h('h2', {}, 'Chosen policy'),
        h('pre', { class: 'card' }, JSON.stringify(c.policy, null, 2)),
      );
    } catch (error) {
      if (!alive) return;
      const missing = error instanceof ApiError && error.status === 404;
      body.replaceChildren(
        h('p', { class: missing ? 'note' : 'error', role: 'alert' }, missing ? `${error.message}.` : `Cannot load the calibration: ${error instanceof Error ? error.message : String(error)}`),
      );
    }
  })();
  return () => {
    alive = false;
    if (url) URL.revokeObjectURL(url);
  };
};
