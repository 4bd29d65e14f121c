/** The list of CLI commands. Each lives in `commands/<name>.ts` and default-exports a `Command`. */
import type { Command } from './command.js';

type Loader = () => Promise<{ default: Command }>;

/** Lazy loaders, so `label` does not pay for loading fastify. */
const LOADERS: Record<string, Loader> = {
  label: () => import('./commands/label.js'),
  convert: () => import('./commands/convert.js'),
  'build-pta': () => import('./commands/build-pta.js'),
  'show-pta': () => import('./commands/show-pta.js'),
  score: () => import('./commands/score.js'),
  rank: () => import('./commands/rank.js'),
  report: () => import('./commands/report.js'),
  calibrate: () => import('./commands/calibrate.js'),
  train: () => import('./commands/train.js'),
  serve: () => import('./commands/serve.js'),
  replay: () => import('./commands/replay.js'),
};

/** Command names, in help order. */
export const COMMAND_NAMES = Object.keys(LOADERS);

/** Loads one command by name, or undefined when there is no such command. */
export async function loadCommand(name: string): Promise<Command | undefined> {
  const loader = Object.hasOwn(LOADERS, name) ? LOADERS[name] : undefined;
  return loader ? (await loader()).default : undefined;
}

/** Loads every command (for the help text). */
export async function loadCommands(): Promise<Command[]> {
  return Promise.all(COMMAND_NAMES.map(async (n) => (await LOADERS[n]!()).default));
}
