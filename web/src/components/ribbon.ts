/** The stage ribbon: one coloured cell per recent step, with the letters as its accessible text. */
import { STAGE_NAMES, stageColor } from '../colors.js';
import { h } from '../dom.js';

export function ribbon(stages: string): HTMLElement {
  const el = h('span', { class: 'ribbon', role: 'img' });
  fillRibbon(el, stages);
  return el;
}

export function fillRibbon(el: HTMLElement, stages: string): void {
  if (el.dataset.stages === stages) return;
  el.dataset.stages = stages;
  el.setAttribute('aria-label', stages === '' ? 'no steps yet' : `stages of the last ${stages.length} steps, oldest first: ${stages.split('').join(' ')}`);
  el.title = stages;
  el.classList.toggle('empty', stages === '');
  el.replaceChildren(...(stages === '' ? ['–'] : stages.split('').map((s) => h('span', { style: `background:${stageColor(s)}` }))));
}

/** The legend of the stage colours. */
export function stageLegend(): HTMLElement {
  return h(
    'p',
    { class: 'legend' },
    'Stages: ',
    ...Object.entries(STAGE_NAMES).flatMap(([k, name]) => [h('span', { class: 'swatch', style: `background:${stageColor(k)}`, 'aria-hidden': 'true' }), ` ${k} ${name} `]),
  );
}
