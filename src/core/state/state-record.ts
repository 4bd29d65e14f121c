/**
 * Builds scorer states as plain objects whose properties all live inside the
 * object: a literal that adds `file` / `range` / `scope` afterwards makes V8
 * allocate a separate property array per state. One literal per combination
 * of the optional fields, in the key order of the State contract
 * (..., unknown, file, range, scope), so states serialise exactly as before.
 * Strings and line ranges that repeat across states and sessions are pooled
 * ({@link intern}, {@link internRange}: a state's range is a frozen shared copy of the label's).
 */
import type { LineRange, State } from '../types.js';
import { intern, internRange } from '../memory/flat-string.js';

/** The fields every state has. */
export type StateCore = Omit<State, 'file' | 'range' | 'scope'>;

/**
 * A state from its core fields and optional target, range and scope (omitted when undefined). The flags
 * `changesEnv` and `variant` are added only when true (a minority of states), after the in-object fields.
 * `c.hash` is taken as given: the state builder pools it once, and its variant table keeps that same copy.
 */
export function stateRecord(c: StateCore, file: string | undefined, range: LineRange | undefined, scope: string | undefined): State {
  const s = record(c, file === undefined ? undefined : intern(file), range === undefined ? undefined : internRange(range), scope === undefined ? undefined : intern(scope), intern(c.tool));
  if (c.changesEnv === true) s.changesEnv = true;
  if (c.variant === true) s.variant = true;
  return s;
}

/**
 * The state object of `c` with its optional fields (no flags), taking the strings and range as given: the
 * caller pools them (`tool`, `hash`: default `c`'s own).
 */
export function record(c: StateCore, f: string | undefined, r: LineRange | undefined, s: string | undefined, tool = c.tool, hash = c.hash): State {
  const { t, stage, kind, command, changesFile, failed, cost, unknown, tokens } = c;
  const mask = (f === undefined ? 0 : 1) | (r === undefined ? 0 : 2) | (s === undefined ? 0 : 4);
  switch (mask) {
    case 1:
      return { t, stage, kind, tool, hash, tokens, command, changesFile, failed, cost, unknown, file: f! };
    case 2:
      return { t, stage, kind, tool, hash, tokens, command, changesFile, failed, cost, unknown, range: r };
    case 3:
      return { t, stage, kind, tool, hash, tokens, command, changesFile, failed, cost, unknown, file: f!, range: r };
    case 4:
      return { t, stage, kind, tool, hash, tokens, command, changesFile, failed, cost, unknown, scope: s! };
    case 5:
      return { t, stage, kind, tool, hash, tokens, command, changesFile, failed, cost, unknown, file: f!, scope: s! };
    case 6:
      return { t, stage, kind, tool, hash, tokens, command, changesFile, failed, cost, unknown, range: r, scope: s! };
    case 7:
      return { t, stage, kind, tool, hash, tokens, command, changesFile, failed, cost, unknown, file: f!, range: r, scope: s! };
    default:
      return { t, stage, kind, tool, hash, tokens, command, changesFile, failed, cost, unknown };
  }
}
