import type { Step } from '../types.js';
import type { Intent } from './intent.js';

const ORCHESTRATION_TOOL = /think|plan|todo|task_?track|summar|condens|memory|note|reflect|recall|delegate|message|ask_user/i;
// eslint-disable-next-line regexp/no-super-linear-move -- only tested on an observation's first 400 characters: worst measured 0.25 ms
const DIR_OBSERVATION = /files and directories|^\s*(\.\/)?[\w.-]+\/\s*$/m;

function looksLikeDirectory(step: Step, path: string): boolean {
  const obs = step.observation ?? '';
  // eslint-disable-next-line regexp/no-super-linear-move -- on the observation's first 400 characters: worst measured 0.16 ms
  if (/cat -n|^\s*\d+[\t:]/m.test(obs.slice(0, 400))) return false;
  if (DIR_OBSERVATION.test(obs.slice(0, 400)) && !obs.startsWith('[File:')) return true;
  if (path === '.' || path.endsWith('/')) return true;
  const base = path.slice(path.lastIndexOf('/') + 1);
  return obs === '' && !base.includes('.') && !/^(Makefile|Dockerfile|LICENSE|README|Gemfile|Rakefile|Procfile|Pipfile|CHANGES|AUTHORS|NEWS)/i.test(base);
}

// One blank run before the name (`print(` takes its own): two adjacent `\s*` split a long run of blanks every
// way before failing (64 KiB of spaces in a code cell: 2.1 s).
export const SKILL_CALL = /^\s*(?:print\(\s*)?(\w+)\(\s*(?:[rRuU]?(?:'([^'\n]*)'|"([^"\n]*)"))?/;
const SKILL_VIEW = /^(open_file|goto_line|scroll_down|scroll_up)$/;
const SKILL_SEARCH = /^(search_dir|search_file|find_file)$/;
const SKILL_EDIT = /^(edit_file_by_replace|insert_content_at_line|append_file|edit_file)$/;

/**
 * OpenHands' IPython agent skills (`open_file('/workspace/src/App.css')`,
 * `edit_file_by_replace(path, to_replace=..., new_content=...)`) are editor
 * tools called through Python: a view, a search or an edit, not a script run.
 */
function agentSkillIntent(code: string, resolve: (p: string) => string): Intent | undefined {
  const m = SKILL_CALL.exec(code);
  const name = m?.[1];
  if (m === null || name === undefined) return undefined;
  const path = m[2] ?? m[3];
  if (SKILL_VIEW.test(name)) return path === undefined ? { type: 'read', files: [] } : { type: 'read', files: [resolve(path)] };
  if (SKILL_SEARCH.test(name)) return { type: 'inspect', kind: 'search', targets: [] };
  if (SKILL_EDIT.test(name) && path !== undefined) return { type: 'write', file: resolve(path), create: false };
  if (name === 'create_file' && path !== undefined) return { type: 'write', file: resolve(path), create: true };
  return undefined;
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
      if (file === '.' || (!a.range && looksLikeDirectory(step, file))) return { type: 'inspect', kind: 'list', targets: [file] };
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
      return agentSkillIntent(a.code, resolve) ?? { type: 'run', kind: 'run_script' };
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
