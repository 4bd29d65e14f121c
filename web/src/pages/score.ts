/**
 * `/score`: a trajectory file scored step by step (upload or paste), shown as a
 * session is, with its path over the task's PTA when the task has one.
 */
import { ptaTree } from '../components/pta-tree.js';
import { trajectoryPanel, type TrajectoryPanel } from '../components/trajectory-view.js';
import { getJson, postJson } from '../api.js';
import { h, setText } from '../dom.js';
import type { Page } from '../router.js';
import type { PtaJson, ScoreStepsResponse, TaskStats } from '../types.js';
import { ptaFacts } from './task.js';

const FORMATS = ['auto', 'steplens', 'openhands', 'swe-agent', 'mini-swe-agent', 'atif'];

/** A log's content as the API wants it: the JSON document, or one record per JSON line. */
export function logContent(text: string): unknown {
  const trimmed = text.trim();
  if (trimmed === '') throw new Error('the trajectory is empty');
  try {
    return JSON.parse(trimmed) as unknown;
  } catch {
    // JSON Lines
  }
  return trimmed.split('\n').flatMap((line, i) => {
    if (line.trim() === '') return [];
    try {
      return [JSON.parse(line) as unknown];
    } catch (error) {
      throw new Error(`line ${i + 1} is not JSON (${error instanceof Error ? error.message : String(error)}), and the whole text is not one JSON document`, { cause: error });
    }
  });
}

/** A task id guessed from a file name (`django__django-11099.traj.json` → `django__django-11099`). */
const taskFromName = (name: string): string => name.replace(/\.(traj\.json|traj|jsonl|json)$/i, '');

export const scorePage: Page = (main) => {
  const tasks = h('datalist', { id: 'tasks' });
  const task = h('input', { id: 'u-task', name: 'task', required: true, list: 'tasks', autocomplete: 'off', placeholder: 'e.g. django__django-11099' });
  const format = h('select', { id: 'u-format', name: 'format' }, ...FORMATS.map((f) => h('option', { value: f }, f)));
  const passed = h('select', { id: 'u-passed', name: 'passed' }, h('option', { value: '' }, 'unknown'), h('option', { value: 'true' }, 'passed'), h('option', { value: 'false' }, 'failed'));
  const file = h('input', { id: 'u-file', name: 'file', type: 'file', accept: '.json,.jsonl,.traj,application/json' });
  const paste = h('textarea', { id: 'u-text', name: 'text', rows: 6, spellcheck: 'false', placeholder: 'or paste the log here (a JSON document, or JSON Lines)' });
  const problem = h('p', { class: 'error', role: 'alert', hidden: true });
  const submit = h('button', { type: 'submit' }, 'Score');
  const result = h('div', {});
  let panel: TrajectoryPanel | undefined;

  file.addEventListener('change', () => {
    const f = file.files?.[0];
    if (f && task.value.trim() === '') task.value = taskFromName(f.name);
  });

  const form = h(
    'form',
    { class: 'card upload', 'aria-labelledby': 'upload-title' },
    h('h2', { id: 'upload-title' }, 'Trajectory'),
    h(
      'div',
      { class: 'grid2' },
      h('div', {}, h('label', { for: 'u-task' }, 'Task id (its PTA is the reference)'), task, tasks),
      h('div', {}, h('label', { for: 'u-format' }, 'Log format'), format),
      h('div', {}, h('label', { for: 'u-passed' }, 'Outcome (sets the real tier)'), passed),
      h('div', {}, h('label', { for: 'u-file' }, 'Log file'), file),
    ),
    h('label', { for: 'u-text' }, 'Log text'),
    paste,
    problem,
    submit,
  );
  form.addEventListener('submit', (e) => {
    e.preventDefault();
    void run();
  });
  main.append(
    h('div', { class: 'page-head' }, h('h1', {}, 'Score a trajectory')),
    h('p', {}, "Scores a whole log the way a live session would, step by step, with the server's policy and configuration. Nothing is stored."),
    form,
    result,
  );
  void getJson<{ tasks: TaskStats[] }>('/v1/tasks')
    .then((r) => tasks.replaceChildren(...r.tasks.map((t) => h('option', { value: t.task }))))
    .catch(() => undefined);

  async function run(): Promise<void> {
    problem.hidden = true;
    submit.disabled = true;
    try {
      const f = file.files?.[0];
      const text = f ? await f.text() : paste.value;
      const body = {
        task: task.value.trim(),
        format: format.value,
        trajectory: logContent(text),
        ...(passed.value !== '' ? { passed: passed.value === 'true' } : {}),
      };
      const r = await postJson<ScoreStepsResponse>('/v1/score/steps', body);
      panel?.destroy();
      panel = trajectoryPanel(r, body.passed);
      const head = h('div', { class: 'page-head' }, h('h2', {}, `${r.task}: ${r.steps.length} steps (${r.format})`));
      result.replaceChildren(head, panel.el);
      panel.mount();
      if (r.alignment) {
        const pta = await getJson<PtaJson>(`/v1/tasks/${encodeURIComponent(r.task)}/pta`);
        result.append(
          h('section', { 'aria-labelledby': 'upload-pta' }, h('h2', { id: 'upload-pta' }, "Path over the task's PTA"), ptaFacts(pta), ptaTree(pta, { alignment: r.alignment, steps: r.steps })),
        );
      } else {
        result.append(h('p', { class: 'note' }, `Task ${r.task} has no PTA: scored against the prior (Φstruct and Φcov are not computed).`));
      }
      head.scrollIntoView({ block: 'start' });
    } catch (error) {
      problem.hidden = false;
      setText(problem, error instanceof Error ? error.message : String(error));
    } finally {
      submit.disabled = false;
    }
  }
  return () => panel?.destroy();
};
