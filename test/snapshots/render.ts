/** Renders labelled trajectories as one readable line per step, for snapshot files a person reads. */
import { readFileSync } from 'node:fs';
import { parseInstancesText } from '../../src/formats/index.js';
import { labelSteps } from '../../src/core/state-builder.js';
import { defaultAnalyzers } from '../../src/syntax/index.js';
import type { Step } from '../../src/core/types.js';
import { CORPUS_DIR } from '../fixtures/corpus.js';

export const CORPUS = `${CORPUS_DIR}/`;

function flat(s: string, max: number): string {
  const one = s.replace(/\s+/g, ' ').trim();
  return one.length > max ? `${one.slice(0, max - 1)}…` : one;
}

/** What a step acts on, for display: its file (and range), else its command or action kind. */
function target(step: Step, file: string | undefined, range: [number, number] | undefined): string {
  const a = step.action;
  const where = file === undefined ? '' : `${file}${range ? `:${range[0]}-${range[1]}` : ''}`;
  const what = a.kind === 'shell' ? a.command : a.kind === 'code' ? a.code : a.kind === 'search' ? `search ${a.query ?? ''}` : a.kind;
  if (a.kind === 'shell' || a.kind === 'code') return where === '' ? `$ ${flat(what, 90)}` : `${where}  $ ${flat(what, 70)}`;
  return where === '' ? flat(what, 90) : where;
}

/**
 * `t stage kind tool target` per step (`?` after the stage marks the fallback; an edit the editor refused says so;
 * with `failed`, any other failed step says `(failed)`: the scored runs of the early-stop fixture carry that flag).
 */
export function renderLabels(steps: Step[], opts: { failed?: boolean } = {}): string {
  const out = labelSteps(steps, defaultAnalyzers());
  const lines = out.map(({ label, state }, i) => {
    const step = steps[i]!;
    const stage = `${label.stage}${label.unknown ? '?' : ''}`;
    const refused = step.action.kind === 'edit' && !label.changesFile ? '  (refused: no change)' : '';
    const failed = opts.failed === true && refused === '' && state.failed ? '  (failed)' : '';
    return `${String(step.t).padStart(3)} ${stage.padEnd(2)} ${label.kind.padEnd(12)} ${(step.tool || '-').padEnd(18)} ${target(step, label.file, label.range)}${refused}${failed}`;
  });
  return `${lines.join('\n')}\n`;
}

/** Parses instance `instance` of a corpus (or other) file with the format registry. */
export function stepsOf(path: string, instance = 0): Step[] {
  const r = parseInstancesText(readFileSync(path, 'utf8'), 'auto', path);
  if (!r.ok) throw new Error(`cannot parse ${path}`);
  const parsed = r.value[instance];
  if (!parsed) throw new Error(`no instance ${instance} in ${path}`);
  return parsed.steps;
}
