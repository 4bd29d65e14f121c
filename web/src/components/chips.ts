/** Small coloured labels: tier, stage, signal severity (colour plus text, never colour alone). */
import { severityColor, stageColor, STAGE_NAMES, textOn, tierColor } from '../colors.js';
import { h } from '../dom.js';
import { signalName } from '../format.js';

export function tierChip(tier: string): HTMLElement {
  const bg = tierColor(tier);
  return h('span', { class: 'chip', style: `background:${bg};color:${textOn(bg)}` }, tier);
}

export function stageChip(stage: string): HTMLElement {
  const bg = stageColor(stage);
  return h('span', { class: 'chip stage', style: `background:${bg};color:${textOn(bg)}`, title: STAGE_NAMES[stage] ?? stage }, stage);
}

export function signalChip(s: { kind: string; severity: string }): HTMLElement {
  const bg = severityColor(s.severity);
  return h(
    'span',
    { class: 'signal' },
    h('span', { class: `chip sev-${s.severity}`, style: `background:${bg};color:${textOn(bg)}` }, s.severity === 'stop' ? '■ stop' : '▲ warn'),
    ' ',
    signalName(s.kind),
  );
}
