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
 * Estimated token cost of a step: the log's prompt + completion tokens when
 * present, else ceil((characters of action + observation) / `charsPerToken`)
 * (the scoring config's, 4 by default).
 */
export function stepCost(step: Step, charsPerToken: number): number {
  const t = step.tokens;
  if (t && (t.prompt !== undefined || t.completion !== undefined)) return (t.prompt ?? 0) + (t.completion ?? 0);
  return Math.ceil((actionText(step.action).length + (step.observation?.length ?? 0)) / charsPerToken);
}
