import type { Step } from '../types.js';
import type { Intent } from './intent.js';

const ORCHESTRATION_TOOL = /think|plan|todo|task_?track|summar|condens|memory|note|reflect|recall|delegate|message|ask_user/i;
const DIR_OBSERVATION = /files and directories|^\s*(\.\/)?[\w.-]+\/\s*$/m;

function looksLikeDirectory(step: Step, path: string): boolean {
  const obs = step.observation ?? '';
  if (/cat -n|^\s*\d+[\t:]/m.test(obs.slice(0, 400))) return false;
  if (DIR_OBSERVATION.test(obs.slice(0, 400)) && !/^\[File:/.test(obs)) return true;
  if (path === '.' || path.endsWith('/')) return true;
  const base = path.slice(path.lastIndexOf('/') + 1);
  return obs === '' && !base.includes('.') && !/^(Makefile|Dockerfile|LICENSE|README|Gemfile|Rakefile|Procfile|Pipfile|CHANGES|AUTHORS|NEWS)/i.test(base);
}

/**
 * The intent of a non-terminal action (editor, search, think, ...). `resolve`
 * maps the action's path to a repo-relative one.
 */
export function actionIntent(step: Step, resolve: (p: string) => string): Intent {
  const a = step.action;
  switch (a.kind) {
    case 'view': {
      const file = resolve(a.path);
      if (!a.range && looksLikeDirectory(step, file)) return { type: 'inspect', kind: 'list', targets: [file] };
      const intent: Intent = { type: 'read', files: [file], numbered: true };
      if (a.range) intent.range = a.range;
      else intent.whole = true;
      return intent;
    }
    case 'edit': {
      const intent: Intent = { type: 'write', file: resolve(a.path), create: a.op === 'create' };
      if (a.range) intent.range = a.range;
      return intent;
    }
    case 'search':
      return { type: 'inspect', kind: 'search', targets: a.path === undefined ? [] : [resolve(a.path)] };
    case 'list':
      return { type: 'inspect', kind: 'list', targets: a.path === undefined ? [] : [resolve(a.path)] };
    case 'code':
      return { type: 'run', kind: 'run_script' };
    case 'think':
      return { type: 'orchestration', kind: 'think' };
    case 'finish':
      return { type: 'orchestration', kind: 'finish' };
    case 'message':
      return { type: 'orchestration', kind: 'message' };
    case 'none':
      return { type: 'orchestration', kind: 'none' };
    case 'other':
      if (ORCHESTRATION_TOOL.test(a.name) || ORCHESTRATION_TOOL.test(step.tool)) return { type: 'orchestration', kind: 'think' };
      if (/^(submit|finish|exit|done|stop)/i.test(a.name)) return { type: 'orchestration', kind: 'finish' };
      return { type: 'unknown' };
    case 'shell':
      return { type: 'unknown' };
  }
}
