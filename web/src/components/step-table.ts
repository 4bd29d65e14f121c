/** Every step as a table row (the chart's accessible twin): stage, tool, what it did, score, reward, signals. */
import { h, setText } from '../dom.js';
import { one, signed, signalName } from '../format.js';
import type { Signal, ViewStep } from '../types.js';
import { stageChip } from './chips.js';

export interface StepTable {
  el: HTMLElement;
  add(steps: readonly ViewStep[], signals: readonly Signal[]): void;
  /** Marks the signals fired at already shown steps. */
  markSignals(signals: readonly Signal[]): void;
  select(t: number | null, scroll?: boolean): void;
}

export function stepTable(onPick: (t: number) => void): StepTable {
  const tbody = h('tbody');
  const rows = new Map<number, HTMLTableRowElement>();
  let selected: HTMLTableRowElement | undefined;
  const table = h(
    'table',
    { class: 'steps' },
    h('caption', {}, 'Steps (click a row to show it on the chart)'),
    h(
      'thead',
      {},
      h(
        'tr',
        {},
        ...['t', 'seq', 'stage', 'kind', 'tool', 'what it did', 'score', 'reward', 'signals'].map((c, i) =>
          h('th', { scope: 'col', class: i === 0 || i === 1 || (i >= 6 && i <= 7) ? 'num' : undefined }, c),
        ),
      ),
    ),
    tbody,
  );
  const signalCell = (t: number, signals: readonly Signal[]): string =>
    signals
      .filter((s) => s.t === t)
      .map((s) => `${s.severity} ${signalName(s.kind)}`)
      .join(', ');

  const el = h('div', { class: 'table-wrap steps-wrap', tabindex: '0', role: 'region', 'aria-label': 'Steps table' }, table);
  return {
    el,
    add(steps, signals) {
      const frag = document.createDocumentFragment();
      for (const s of steps) {
        if (rows.has(s.t)) continue;
        const tr = h(
          'tr',
          { 'data-t': s.t, class: s.failed ? 'failed' : undefined },
          h('td', { class: 'num' }, String(s.t)),
          h('td', { class: 'num' }, s.seq === undefined ? '–' : String(s.seq)),
          h('td', {}, stageChip(s.stage)),
          h('td', {}, s.kind),
          h('td', { class: 'mono' }, s.tool),
          h('td', { class: 'mono what', title: s.text }, s.text, s.failed ? h('span', { class: 'failed-mark' }, ' (failed)') : null),
          h('td', { class: 'num' }, one(s.score.total)),
          h('td', { class: 'num' }, signed(s.reward)),
          h('td', { class: 'sig' }, signalCell(s.t, signals)),
        );
        tr.addEventListener('click', () => onPick(s.t));
        rows.set(s.t, tr);
        frag.append(tr);
      }
      tbody.append(frag);
    },
    markSignals(signals) {
      for (const s of signals) {
        const cell = rows.get(s.t)?.querySelector('.sig');
        if (cell) setText(cell, signalCell(s.t, signals));
      }
    },
    select(t, scroll = false) {
      selected?.classList.remove('selected');
      selected?.removeAttribute('aria-selected');
      selected = t === null ? undefined : rows.get(t);
      if (!selected) return;
      selected.classList.add('selected');
      selected.setAttribute('aria-selected', 'true');
      if (scroll) {
        // Scroll the table's own box only, never the page.
        const wrap = el;
        const top = selected.offsetTop - wrap.clientHeight / 2;
        wrap.scrollTo({ top: Math.max(0, top) });
      }
    },
  };
}
