/**
 * Commands named like `Object.prototype`'s members (`constructor`, `toString`, `valueOf`, `__proto__`): the tables
 * of wrappers, runner prefixes and build subcommands were plain objects, so such a name found an inherited function
 * there. `constructor -x` threw while parsing (the whole trajectory was refused as an internal error), `toString`
 * threw in the environment-change check, and `valueOf run pytest` was read as a runner prefix (a test run).
 */
import { describe, expect, it } from 'vitest';
import { createShellAnalyzer } from '../../src/syntax/index.js';
import { last, run } from './helpers.js';

const NAMES = ['constructor', 'toString', 'valueOf', 'hasOwnProperty', '__proto__', 'isPrototypeOf'];

describe('commands named like Object.prototype members', () => {
  it('parse as plain commands, flags and all', () => {
    const shell = createShellAnalyzer();
    for (const name of NAMES) {
      expect(shell.parse(`${name} -x y`).commands, name).toEqual([{ name, args: ['-x', 'y'], writes: [], heredoc: false, pipelineIndex: 0 }]);
    }
  });

  it('label as unknown commands that change nothing, like any unknown name', () => {
    for (const name of NAMES) {
      for (const line of [name, `${name} -x y`, `${name} build`]) {
        const [step] = run([line]);
        expect(step!.label, line).toEqual(last(line.replace(name, 'frobnicate')));
        expect(step!.state.changesEnv === true, line).toBe(false);
      }
    }
  });

  it('are no runner prefix: `valueOf run pytest` is not a test run', () => {
    expect(last('valueOf run pytest').stage).not.toBe('V');
    expect(last('poetry run pytest').stage).toBe('V');
  });
});
