/**
 * The size of V8's young generation in a server process. A scavenge pause grows with what survives it, and
 * a server's sessions keep state from one step to the next. V8 grows the semi-spaces to 16 MB (32 on Node
 * 24) as soon as the process allocates fast (loading the server's modules already does), and does not
 * shrink them under load. At 1,000 sessions and 500 steps/s that meant one 4-11 ms pause every 1-2 s, and
 * a step p99 over 2 ms. With the semi-spaces kept at V8's initial 1 MB, pauses are under 1.6 ms, at
 * roughly 10-15 % more CPU a step at full load (bench/README.md, "The young generation kept small").
 *
 * `small` (the server's default) stops the young generation from growing. It has to happen before the
 * process allocates much, so the entry points call {@link applyYoungGeneration} before they load the
 * server. `default` leaves V8's growth as it is. A node flag that sizes the semi-spaces (in `NODE_OPTIONS` or
 * on node's command line) is the user's choice, and it wins.
 */
import v8 from 'node:v8';
import { SteplensError, ok, type Result } from '../errors.js';

export type YoungGeneration = 'small' | 'default';
const CHOICES: readonly string[] = ['small', 'default'] satisfies YoungGeneration[];
const FLAG = '--young-generation';
export const YOUNG_GENERATION_ENV = 'STEPLENS_YOUNG_GENERATION';

/** The choice in `args` (`--young-generation small|default`, the last one wins) or the environment; `small` when neither says. */
export function youngGenerationChoice(args: readonly string[], env: NodeJS.ProcessEnv): Result<YoungGeneration> {
  let value = env[YOUNG_GENERATION_ENV];
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a === FLAG) value = args[i + 1] ?? '';
    else if (a.startsWith(`${FLAG}=`)) value = a.slice(FLAG.length + 1);
  }
  if (value === undefined) return ok('small');
  if (CHOICES.includes(value)) return ok(value as YoungGeneration);
  return { ok: false, error: new SteplensError('usage', `${FLAG} must be 'small' or 'default' (got '${value}')`) };
}

/** What the process's young generation is (the server logs it when it starts listening). */
export interface YoungGenerationState {
  choice: YoungGeneration;
  /** `pinned`: kept at its size by this module; `v8`: V8's own growth; `node-flag`: sized by a node flag of the user's. */
  sizedBy: 'pinned' | 'v8' | 'node-flag';
  /** Both semi-spaces, MB, when applied. */
  newSpaceMb: number;
}

const SEMI_SPACE_FLAG = /^--(max|min)[-_]semi[-_]space[-_]size\b/;

/** Whether node was started with a flag that sizes the semi-spaces. */
function nodeSizesSemiSpaces(): boolean {
  return [...process.execArgv, ...(process.env.NODE_OPTIONS ?? '').split(/\s+/)].some((a) => SEMI_SPACE_FLAG.test(a));
}

function newSpaceMb(): number {
  const space = v8.getHeapSpaceStatistics().find((s) => s.space_name === 'new_space');
  return space === undefined ? 0 : space.space_size / 2 ** 20;
}

let applied: YoungGenerationState | undefined;

/**
 * Applies `choice` to this process, once: the first call decides (V8 cannot give the room back). `small`
 * sets V8's semi-space growth factor to 1, so the young generation keeps the size it has now: V8's initial
 * 1 MB semi-spaces when called before the server's modules load.
 */
export function applyYoungGeneration(choice: YoungGeneration): YoungGenerationState {
  if (applied !== undefined) return applied;
  let sizedBy: YoungGenerationState['sizedBy'] = 'v8';
  if (nodeSizesSemiSpaces()) sizedBy = 'node-flag';
  else if (choice === 'small') {
    v8.setFlagsFromString('--semi-space-growth-factor=1');
    sizedBy = 'pinned';
  }
  applied = { choice, sizedBy, newSpaceMb: newSpaceMb() };
  return applied;
}

/** The state {@link applyYoungGeneration} set, with the young generation's size now; undefined if it was never called. */
export function youngGenerationState(): YoungGenerationState | undefined {
  return applied === undefined ? undefined : { ...applied, newSpaceMb: newSpaceMb() };
}
