/**
 * Caps on one task's PTA. Every reference a client sends (POST, a `learn` session) grows it, so without
 * a cap one client could grow it without end: 5,000-step references added 1.6 MB each (64.7 MB after 40),
 * and every later session start and merge paid for the size.
 */
import { err, ok, type Result } from '../../errors.js';
import type { Pta } from '../scorer-api.js';
import type { State } from '../types.js';
import { addReferenceInSteps, buildPtaInSteps, ptaJsonBytesInSteps } from './build.js';

export interface PtaLimits {
  /** References one task's PTA may hold. */
  maxReferences: number;
  /** Nodes (root excluded) one task's PTA may hold. */
  maxNodes: number;
  /** Bytes of one task's PTA as JSON (what is stored, and read back on a cache miss). */
  maxBytes: number;
}

/** Far above real PTAs (the bundled ones: 2-3 references, 20-40 KB), low enough that one PTA reads, grows and writes within a ping's budget (docs/reliability.md). */
export const DEFAULT_PTA_LIMITS: PtaLimits = { maxReferences: 1000, maxNodes: 50_000, maxBytes: 16 * 1024 * 1024 };

/**
 * The task's PTA grown by one reference (built when `current` is undefined), or why it would pass a cap
 * (nothing changes then), in steps: it yields every few hundred states, so a server can let other
 * clients' work run between them. The version is `current.version + 1` as with `addReference`; a PTA built anew
 * is version `removed + 1` (`removed`: the version the task's previous PTA was removed at, 0 for none), so a
 * version number names one PTA for good.
 */
export function* growWithinSteps(task: string, current: Pta | undefined, states: readonly State[], limits: PtaLimits, by?: string, removed = 0): Generator<void, Result<Pta, string>> {
  const what = `task ${task}: a reference of ${states.length} steps`;
  const held = current?.references.length ?? 0;
  if (held + 1 > limits.maxReferences) return err(`${what} is refused: its PTA already holds ${held} references, the limit`);
  const who = by !== undefined ? { by } : {};
  const next = current === undefined ? yield* buildPtaInSteps(task, [states], { ...who, version: removed + 1 }) : yield* addReferenceInSteps(current, states, who);
  const nodes = next.nodes.length - 1;
  if (nodes > limits.maxNodes) return err(`${what} would make its PTA ${nodes} nodes, over the limit of ${limits.maxNodes}`);
  const bytes = yield* ptaJsonBytesInSteps(next);
  if (bytes > limits.maxBytes) return err(`${what} would make its PTA ${bytes} bytes of JSON, over the limit of ${limits.maxBytes}`);
  return ok(next);
}

/** {@link growWithinSteps} in one go. */
export function growWithin(task: string, current: Pta | undefined, states: readonly State[], limits: PtaLimits, by?: string): Result<Pta, string> {
  const steps = growWithinSteps(task, current, states, limits, by);
  let r = steps.next();
  while (r.done !== true) r = steps.next();
  return r.value;
}
