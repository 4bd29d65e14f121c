import type { Action, Step } from '../types.js';

/** The textual content of an action (what the model wrote), for character-based cost estimates. */
export function actionText(action: Action): string {
  switch (action.kind) {
    case 'shell':
      return action.command;
    case 'code':
      return action.code;
    case 'view':
      return action.path;
    case 'edit':
      return action.path + (action.old ?? '') + (action.new ?? '') + (action.text ?? '');
    case 'search':
      return (action.query ?? '') + (action.path ?? '');
    case 'list':
      return action.path ?? '';
    case 'think':
    case 'finish':
    case 'message':
      return action.text ?? '';
    case 'none':
      return '';
    case 'other':
      return action.name;
  }
}

/**
 * The most tokens one step counts for: far above any model call, low enough that sums over runs and
 * corpora stay finite numbers (a log claiming 1.7e308 tokens made the sums Infinity, sent as `null`).
 */
export const MAX_STEP_TOKENS = 1e15;

/**
 * Estimated token cost of a step: the log's prompt + completion tokens when
 * present, else ceil((characters of action + observation) / `charsPerToken`)
 * (the scoring config's, 4 by default); at most {@link MAX_STEP_TOKENS}.
 */
export function stepCost(step: Step, charsPerToken: number): number {
  const t = step.tokens;
  if (t && (t.prompt !== undefined || t.completion !== undefined)) return Math.min(MAX_STEP_TOKENS, (t.prompt ?? 0) + (t.completion ?? 0));
  return Math.min(MAX_STEP_TOKENS, Math.ceil((actionText(step.action).length + (step.observation?.length ?? 0)) / charsPerToken));
}
