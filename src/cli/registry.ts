/**
 * The list of CLI commands. Each lives in `commands/<name>.ts` and default-exports a `Command`; it is loaded
 * only when run (so `label` does not load fastify, nor `--help` any command). In the CLI bundle each command
 * is a file of its own (scripts/cli-bundle.mjs), so the loaders below are also where the bundle splits.
 */
import type { Command } from './command.js';

interface Entry {
  /** One line for `steplens --help`. */
  summary: string;
  load: () => Promise<{ default: Command }>;
}

const COMMANDS: Record<string, Entry> = {
  label: { summary: 'parse one trajectory and label its steps (E/I/V/O)', load: () => import('./commands/label.js') },
  convert: { summary: 'print a trajectory as steplens JSON Lines (one normalised step a line)', load: () => import('./commands/convert.js') },
  'build-pta': { summary: "build a task's reference PTA from passing trajectories", load: () => import('./commands/build-pta.js') },
  'show-pta': { summary: "print a PTA's summary: paths, node counts, the tree with each node's stage and reference count", load: () => import('./commands/show-pta.js') },
  score: { summary: 'score one trajectory against a PTA (or reference-free)', load: () => import('./commands/score.js') },
  rank: { summary: 'rank N runs of one task, best first, each with what it was scored by', load: () => import('./commands/rank.js') },
  report: { summary: 'corpus report: rankings, Lucky passes, statistics, multi-trial reliability', load: () => import('./commands/report.js') },
  calibrate: { summary: 'choose the early-stop policy (and composite weights) from runs with known outcomes, with the price stated', load: () => import('./commands/calibrate.js') },
  train: { summary: 'fit the outcome forecaster P(pass | first t steps) on runs with known outcomes, chosen and evaluated within source, held out', load: () => import('./commands/train.js') },
  serve: { summary: 'run the online scoring server (WebSocket + HTTP)', load: () => import('./commands/serve.js') },
  replay: { summary: 'stream a trajectory to a running server and print live scores and signals', load: () => import('./commands/replay.js') },
};

/** Command names, in help order. */
export const COMMAND_NAMES = Object.keys(COMMANDS);

/** The one-line summary of each command, in help order. */
export function commandSummaries(): Array<{ name: string; summary: string }> {
  return COMMAND_NAMES.map((name) => ({ name, summary: COMMANDS[name]!.summary }));
}

/** Loads one command by name, or undefined when there is no such command. */
export async function loadCommand(name: string): Promise<Command | undefined> {
  const entry = Object.hasOwn(COMMANDS, name) ? COMMANDS[name] : undefined;
  return entry ? (await entry.load()).default : undefined;
}
