/** The list of CLI commands. Each lives in `commands/<name>.ts` and default-exports a `Command`. */
import type { Command } from './command.js';

const NAMES = ['label', 'convert', 'build-pta', 'score', 'report', 'serve', 'replay'] as const;

/** Loads every command module that exists (lazily, so `label` does not pay for fastify). */
export async function loadCommands(): Promise<Command[]> {
  const out: Command[] = [];
  for (const name of NAMES) {
    try {
      const mod = (await import(`./commands/${name}.js`)) as { default: Command };
      out.push(mod.default);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ERR_MODULE_NOT_FOUND') throw error;
    }
  }
  return out;
}
