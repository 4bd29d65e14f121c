import type { Intent } from './intent.js';
import { positionals } from './shell-args.js';

const INSPECT = /^(log|show|blame|grep|ls-files|ls-tree|rev-parse|branch|remote|describe|shortlog|reflog|cat-file|tag|config)$/;
const UNDO = /^(checkout|restore|reset|stash|clean|revert|switch)$/;
const APPLY = /^(apply|am|cherry-pick|merge|pull|rebase)$/;

/** Intent of a `git` command: inspection (rule 4), status/diff (rule 6), undo/bookkeeping (rule 1), apply (rule 3). */
export function gitIntent(args: string[], writes: string[], resolve: (p: string) => string): Intent {
  const pos = positionals(args, new Set(['-C', '-c', '--git-dir', '--work-tree']));
  const sub = pos[0] ?? '';
  const rest = pos.slice(1);
  if (sub === 'diff' || sub === 'status') {
    const out = writes[0];
    if (out !== undefined) return { type: 'orchestration', kind: 'housekeeping', changes: true, file: resolve(out) };
    return { type: 'run', kind: 'vcs' };
  }
  if (INSPECT.test(sub)) return { type: 'inspect', kind: 'vcs', targets: rest.filter((a) => a.includes('.') || a.includes('/')).map(resolve) };
  if (UNDO.test(sub)) {
    const dash = args.indexOf('--');
    const files = dash >= 0 ? args.slice(dash + 1) : [];
    const first = files[0];
    return first === undefined ? { type: 'orchestration', kind: 'housekeeping', changes: true } : { type: 'orchestration', kind: 'housekeeping', changes: true, file: resolve(first) };
  }
  if (APPLY.test(sub)) return { type: 'write', create: false };
  return { type: 'orchestration', kind: 'housekeeping' };
}
