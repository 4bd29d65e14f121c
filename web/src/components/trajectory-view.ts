/**
 * One trajectory on a page (a live session or an upload): the headline
 * numbers, the score and reward charts, the hovered or picked step, every
 * step in a table, the signals, the waste and the report (final once ended).
 */
import { PALETTE, STAGE_NAMES } from '../colors.js';
import { h, setText } from '../dom.js';
import { one, referenceText, signed } from '../format.js';
import type { FinalMessage, Signal, TrajectoryView, ViewStep } from '../types.js';
import { signalChip, stageChip, tierChip } from './chips.js';
import { stageLegend } from './ribbon.js';
import { scoreCharts, spans, type ScoreCharts } from './score-chart.js';
import { stepTable } from './step-table.js';

type Report = TrajectoryView['report'];

export interface TrajectoryPanel {
  el: HTMLElement;
  /** Call once `el` is in the document (the charts need its width). */
  mount(): void;
  addStep(step: ViewStep): void;
  addSignal(signal: Signal): void;
  setFinal(final: FinalMessage): void;
  destroy(): void;
}

const stepsText = (steps: readonly number[]): string =>
  spans(steps)
    .map(([a, b]) => (a === b ? `${a}` : `${a}-${b}`))
    .join(', ');

function card(label: Node | string, value: Node | string, id?: string): HTMLElement {
  return h('div', { class: 'card stat' }, h('div', { class: 'stat-label' }, label), h('div', { class: 'stat-value', id }, value));
}

/** Said beside a tier no outcome decided (docs/method.md, Tiers: unknown or still running → projected). */
const PROJECTED_NOTE = 'outcome unknown: the tier this score gets if the run passed';
const FAILING_TIERS = new Set(['Partial-fail', 'Off-track']);

function reportBlock(report: Report, final: FinalMessage | undefined, projected: boolean): HTMLElement {
  const s = report.score;
  const facts: Array<[string, Node | string]> = [
    ['score f', one(s.total)],
    projected ? ['projected tier', h('span', {}, tierChip(report.tier), h('span', { class: 'muted' }, ` (${PROJECTED_NOTE})`))] : ['tier', tierChip(report.tier)],
    ...(report.lucky ? [['Lucky category', report.lucky] as [string, string]] : []),
    ['Φstruct', one(s.struct)],
    ['Φcov', one(s.cov)],
    ['Φcoh', s.coh.toFixed(3)],
    ['Φtemp', s.temp.toFixed(3)],
    ['steps', String(report.steps)],
    [
      'stages',
      Object.keys(STAGE_NAMES)
        .map((k) => `${k} ${report.stages.split('').filter((x) => x === k).length}`)
        .join(' · '),
    ],
    ['steps no rule knew', String(report.unknown)],
    ['reference', referenceText(report.reference)],
    ...(final?.passed !== undefined ? [['outcome', final.passed ? 'passed' : 'failed'] as [string, string]] : []),
    ...(final?.reason ? [['ended by', final.reason] as [string, string]] : []),
    ...(final?.learned ? [['learned', final.learned.version !== undefined ? `PTA now v${final.learned.version}` : `no: ${final.learned.error?.message ?? 'not stored'}`] as [string, string]] : []),
  ];
  // In a scroll box like the steps table, its step lists wrapping: a long session's lists widened the whole page.
  const waste =
    report.waste.length === 0
      ? h('p', {}, 'No wasted steps found.')
      : h(
          'div',
          { class: 'table-wrap' },
          h(
            'table',
            { class: 'compact' },
            h('caption', {}, 'Waste (shaded grey on the chart)'),
            h('thead', {}, h('tr', {}, ...['category', 'steps', 'tool', 'wasted steps', 'wasted tokens'].map((c) => h('th', { scope: 'col' }, c)))),
            h(
              'tbody',
              {},
              ...report.waste.map((w) =>
                h(
                  'tr',
                  {},
                  h('td', {}, w.category.replace(/_/g, ' ')),
                  h('td', { class: 'mono wrap' }, stepsText(w.steps)),
                  h('td', { class: 'mono' }, w.tool),
                  h('td', { class: 'num' }, String(w.wastedSteps)),
                  h('td', { class: 'num' }, String(Math.round(w.wastedTokens))),
                ),
              ),
            ),
          ),
        );
  return h('div', {}, h('dl', { class: 'facts' }, ...facts.flatMap(([k, v]) => [h('dt', {}, k), h('dd', {}, v)])), waste);
}

/** `outcome`: an upload's outcome, given with it (a session's comes in its final frame). */
export function trajectoryPanel(view: TrajectoryView, outcome?: boolean): TrajectoryPanel {
  const steps: ViewStep[] = [...view.steps];
  const signals: Signal[] = [...view.signals];
  let report: Report = view.report;
  let final: FinalMessage | undefined = view.final;
  /** No outcome known (still running, or ended without one): every tier shown is the projected passing tier. */
  const projected = (): boolean => (final?.passed ?? outcome) === undefined;
  /** A step's tier is the one its score frame carried: a passing projection unless the outcome was known then and agrees with it. */
  const stepProjected = (tier: string): boolean => {
    const passed = final?.passed ?? outcome;
    return passed === undefined || passed === FAILING_TIERS.has(tier);
  };
  let charts: ScoreCharts | undefined;
  let pinned: number | null = null;
  let hovered: number | null = null;

  const detail = h('div', { class: 'card detail', 'aria-live': 'polite' });
  const table = stepTable((t) => pick(t, false));
  const signalList = h('ul', { class: 'signals' });
  const reportHead = h('h2', {});
  const reportBody = h('div', {});
  const chartHost = h('div', { class: 'chart', tabindex: '0', role: 'img', 'aria-label': '' });
  const tierLabel = h('span', {}, 'tier');
  const stats = {
    total: h('span', {}),
    tier: h('span', {}),
    steps: h('span', {}),
    signals: h('span', {}),
    reference: h('span', {}),
  };

  const el = h(
    'div',
    { class: 'trajectory' },
    h('div', { class: 'stats' }, card('score f', stats.total), card(tierLabel, stats.tier), card('steps', stats.steps), card('signals', stats.signals), card('reference', stats.reference)),
    h(
      'section',
      { 'aria-labelledby': 'chart-title' },
      h('h2', { id: 'chart-title' }, 'Score over steps'),
      h(
        'p',
        { class: 'legend' },
        "Top: the composite score f (black) and its four signals (Φcoh and Φtemp ×100); the coloured band under 0 is each step's stage; grey spans are wasted steps; ",
        h('span', { style: `color:${PALETTE.warn}` }, '▲ dashed: warn'),
        ', ',
        h('span', { style: `color:${PALETTE.stop}` }, '■ solid: stop'),
        ' signals. Bottom: the per-step reward. Hover or use ← → on the chart to read a step; click to keep it.',
      ),
      stageLegend(),
      chartHost,
      detail,
    ),
    h('section', { 'aria-labelledby': 'signals-title' }, h('h2', { id: 'signals-title' }, 'Signals'), signalList),
    h('section', { 'aria-labelledby': 'steps-title' }, h('h2', { id: 'steps-title', class: 'visually-hidden' }, 'Steps'), table.el),
    h('section', { 'aria-label': 'Report' }, reportHead, reportBody),
  );

  const showDetail = (t: number | null): void => {
    const s = t === null ? undefined : (steps.find((x) => x.t === t) ?? undefined);
    if (!s) {
      detail.replaceChildren(h('p', { class: 'muted' }, steps.length === 0 ? 'No steps yet.' : 'Hover the chart or pick a row to see a step.'));
      return;
    }
    const here = signals.filter((x) => x.t === s.t);
    detail.replaceChildren(
      h(
        'p',
        { class: 'detail-head' },
        h('strong', {}, `Step ${s.t}`),
        s.seq !== undefined ? ` (seq ${s.seq})` : '',
        ' ',
        stageChip(s.stage),
        ` ${STAGE_NAMES[s.stage] ?? ''} · ${s.kind} · tool `,
        h('code', {}, s.tool),
        s.failed ? h('span', { class: 'failed-mark' }, ' · failed') : '',
        t === pinned ? h('span', { class: 'muted' }, ' · kept') : '',
      ),
      h('pre', { class: 'what' }, s.text || '(nothing)'),
      h(
        'p',
        {},
        `score ${one(s.score.total)} (reward ${signed(s.reward)}) · Φstruct ${one(s.score.struct)} · Φcov ${one(s.score.cov)} · Φcoh ${s.score.coh.toFixed(2)} · Φtemp ${s.score.temp.toFixed(2)} · ${stepProjected(s.tier) ? 'projected tier' : 'tier'} `,
        tierChip(s.tier),
        s.file ? ` · file ${s.file}` : '',
      ),
      ...here.map((x) => h('p', {}, signalChip(x), ` ${x.message}`)),
    );
  };

  function pick(t: number, fromChart: boolean): void {
    pinned = pinned === t && fromChart ? null : t;
    table.select(pinned, !fromChart);
    if (!fromChart && pinned !== null) charts?.focus(pinned);
    showDetail(hovered ?? pinned);
  }

  const drawSignals = (): void => {
    signalList.replaceChildren(
      ...(signals.length === 0
        ? [h('li', { class: 'muted' }, 'No signal fired.')]
        : signals.map((s) =>
            h(
              'li',
              {},
              h('button', { type: 'button', class: 'link', onclick: () => pick(s.t, false) }, `step ${s.t}`),
              ' ',
              signalChip(s),
              ` ${s.message}`,
              s.steps.length > 0 ? h('span', { class: 'muted' }, ` (steps ${stepsText(s.steps)})`) : '',
            ),
          )),
    );
  };

  const drawReport = (): void => {
    setText(reportHead, final ? `Final report${final.reason ? ` (${final.reason})` : ''}` : view.session === undefined ? 'Report' : 'Report so far (final when the session ends)');
    reportBody.replaceChildren(reportBlock(final ?? report, final, projected()));
  };

  const drawStats = (): void => {
    const last = steps[steps.length - 1];
    const total = final?.score.total ?? last?.score.total ?? 0;
    setText(stats.total, one(total));
    setText(tierLabel, projected() ? 'projected tier' : 'tier');
    stats.tier.replaceChildren(tierChip(final?.tier ?? last?.tier ?? report.tier));
    if (projected()) stats.tier.title = PROJECTED_NOTE;
    else stats.tier.removeAttribute('title');
    setText(stats.steps, String(final?.steps ?? steps.length));
    const stops = signals.filter((s) => s.severity === 'stop').length;
    setText(stats.signals, `${signals.length - stops} warn · ${stops} stop`);
    setText(stats.reference, referenceText(final?.reference ?? report.reference));
    chartHost.setAttribute('aria-label', `Score chart of ${steps.length} steps; last score ${one(total)}. The steps table below holds the same data.`);
  };

  const hasReference = (): boolean => (final?.reference ?? report.reference).kind === 'pta';
  const redrawChart = (): void => {
    charts?.update({ steps, signals, waste: spans((final ?? report).waste.flatMap((w) => w.steps)), hasReference: hasReference() });
  };

  let queued = false;
  const refresh = (): void => {
    if (queued) return;
    queued = true;
    requestAnimationFrame(() => {
      queued = false;
      table.add(steps, signals);
      table.markSignals(signals);
      drawStats();
      drawSignals();
      redrawChart();
      if (hovered === null) showDetail(pinned ?? steps[steps.length - 1]?.t ?? null);
    });
  };

  chartHost.addEventListener('keydown', (e) => {
    if (steps.length === 0) return;
    const at = steps.findIndex((s) => s.t === (pinned ?? hovered ?? -1));
    const moves: Record<string, number> = { ArrowLeft: Math.max(0, at - 1), ArrowRight: Math.min(steps.length - 1, at < 0 ? 0 : at + 1), Home: 0, End: steps.length - 1 };
    const next = moves[e.key];
    if (next === undefined) return;
    e.preventDefault();
    pick(steps[next]?.t ?? 0, false);
  });
  chartHost.addEventListener('click', (e) => {
    if ((e.target as Element).closest('.u-over') && hovered !== null) pick(hovered, true);
  });

  let observer: ResizeObserver | undefined;
  return {
    el,
    mount() {
      charts = scoreCharts(chartHost, Math.max(320, chartHost.clientWidth), (t) => {
        hovered = t;
        showDetail(t ?? pinned ?? steps[steps.length - 1]?.t ?? null);
      });
      observer = new ResizeObserver(() => charts?.resize(Math.max(320, chartHost.clientWidth)));
      observer.observe(chartHost);
      table.add(steps, signals);
      drawStats();
      drawSignals();
      drawReport();
      redrawChart();
      showDetail(steps[steps.length - 1]?.t ?? null);
    },
    addStep(step) {
      if (step.t <= (steps[steps.length - 1]?.t ?? -1)) return;
      steps.push(step);
      refresh();
    },
    addSignal(signal) {
      signals.push(signal);
      refresh();
    },
    setFinal(f) {
      final = f;
      report = f;
      drawReport();
      refresh();
    },
    destroy() {
      observer?.disconnect();
      charts?.destroy();
    },
  };
}
