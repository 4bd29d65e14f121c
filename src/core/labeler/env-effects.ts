/**
 * Whether a step changed the environment or the tree beyond the file write its
 * label names (method.md section 6.3): the repeat detectors take such a step as
 * a change between two tries, so the same command run again after it is not a
 * blind retry. Decided from the step's intents and its parsed shell line.
 */
import type { ParsedShell, SimpleCommand } from '../ports.js';
import type { Label } from '../types.js';
import type { Intent } from './intent.js';
import { TEST_SUBCOMMAND, TEST_SUBCOMMAND_TOOLS } from './command-tables.js';
import { hasFlag, positional } from './shell-args.js';
import { redirectIsWrite } from './shell-intent.js';

/** Housekeeping that adds, deletes or re-permissions files and directories (`rm -rf build`, `mkdir pkg`, `chmod +x t.sh`). */
const TREE_HOUSEKEEPING = new Set(['rm', 'rmdir', 'mkdir', 'chmod', 'chown', 'ln', 'unlink', 'install']);
/** Compilers and build tools whose every run writes artifacts (a test target is a test run, decided before this). */
const BUILDERS = new Set(['make', 'cmake', 'ninja', 'meson', 'bazel', 'ant', 'sbt', 'javac', 'gcc', 'g++', 'cc', 'clang', 'clang++', 'rustc', 'cython', 'f2py', 'jar', 'scons']);
/**
 * Build tools that write artifacts only for some subcommands. A map, not an object: a command named `toString` or
 * `constructor` found `Object.prototype`'s function in the object and threw on its `.test`.
 */
const BUILD_SUBCOMMANDS: ReadonlyMap<string, RegExp> = new Map([
  ['mvn', /^(compile|package|install|clean|generate-sources|process-resources|test-compile|deploy|war|jar)/],
  ['mvnw', /^(compile|package|install|clean|generate-sources|process-resources|test-compile|deploy|war|jar)/],
  ['gradle', /^(build|assemble|compile|jar|war|clean|install)/],
  ['gradlew', /^(build|assemble|compile|jar|war|clean|install)/],
  ['cargo', /^(build|install|clean|fix|fmt|update|add|remove)$/],
  ['go', /^(build|install|generate|get|mod)$/],
  ['dotnet', /^(build|publish|restore|clean|add|new)$/],
]);
/** The JavaScript package managers whose `run SCRIPT` / `SCRIPT` may build. */
const JS_RUNNERS: ReadonlySet<string> = new Set(['npm', 'yarn', 'pnpm', 'bun']);
const PYTHON_NAME = /^python(\d+(\.\d+)?)?$/;
/** Formatters and fixers that rewrite files in place unless asked only to check. */
const REWRITERS = new Set(['black', 'isort', 'autopep8', 'yapf', 'autoflake', 'gofmt', 'rustfmt', 'clang-format', 'prettier', 'eslint', 'ruff', 'rubocop']);
const SETUP_PY_WRITES = /^(build|build_ext|build_py|build_src|develop|install|bdist\w*|sdist|egg_info|clean)$/;
const MANAGE_PY_WRITES = /^(migrate|makemigrations|startapp|startproject|collectstatic|compilemessages|makemessages)$/;
const JS_BUILD_SCRIPT = /^(build|compile|bundle|dist|prepare|generate|gen)\b/;

function baseName(name: string): string {
  const i = name.lastIndexOf('/');
  return i < 0 ? name : name.slice(i + 1);
}

/** True for a formatter run that writes its files (not `--check` / `--diff`; `prettier` / `eslint` / `rubocop` only with a write flag). */
function rewrites(base: string, args: string[]): boolean {
  if (args.some((a) => a === '--check' || a === '--diff' || a === '-l' || a === '--list-different')) return false;
  if (base === 'prettier') return args.includes('--write') || hasFlag(args, 'w');
  if (base === 'eslint' || base === 'rubocop') return args.some((a) => a === '--fix' || a === '-a' || a === '-A' || a === '--autocorrect');
  if (base === 'gofmt') return hasFlag(args, 'w');
  if (base === 'ruff') return args[0] === 'format' || args.includes('--fix');
  if (base === 'clang-format') return hasFlag(args, 'i');
  return true;
}

/**
 * True when one simple command writes build artifacts, rewrites sources or changes the tree without a labelled write.
 * This runs for every command of every shell step, so the cheap tests go first: the first positional is looked up
 * only for the tools that read it, and a command's redirection judged only when it has one.
 */
function commandChanges(cmd: SimpleCommand): boolean {
  const base = baseName(cmd.name);
  const args = cmd.args;
  // A test target (`make test`, `mvn verify`) is a test run: run twice with nothing changed, the second is a retry.
  if (TEST_SUBCOMMAND_TOOLS.has(base) && TEST_SUBCOMMAND.test(positional(args, 0) ?? '')) return false;
  if (TREE_HOUSEKEEPING.has(base) || BUILDERS.has(base)) return true;
  // A run's output redirected into a file (`pylint x.py > out.txt`): the rules label the run, the file is written all the same.
  if (cmd.writes.some((w) => !w.startsWith('/dev/')) && !redirectIsWrite(cmd)) return true;
  const sub = BUILD_SUBCOMMANDS.get(base);
  if (sub !== undefined) return sub.test(positional(args, 0) ?? '');
  if (REWRITERS.has(base)) return rewrites(base, args);
  if (base === 'tsc') return !args.includes('--noEmit');
  if (JS_RUNNERS.has(base)) {
    const pos0 = positional(args, 0);
    return pos0 === 'run' ? JS_BUILD_SCRIPT.test(positional(args, 1) ?? '') : JS_BUILD_SCRIPT.test(pos0 ?? '');
  }
  if (base === 'curl') return args.some((a) => a === '-o' || a === '-O' || a === '--output' || a === '--remote-name' || /^-[A-Za-z]*[oO]$/.test(a));
  if (base === 'wget') return !args.some((a, i) => (a === '-O' || a === '--output-document') && args[i + 1] === '-');
  if (base === 'django-admin') return MANAGE_PY_WRITES.test(positional(args, 0) ?? '');
  if (PYTHON_NAME.test(base)) {
    const pos0 = positional(args, 0);
    const script = pos0 === undefined ? '' : baseName(pos0);
    if (script === 'setup.py') return SETUP_PY_WRITES.test(positional(args, 1) ?? '');
    if (script === 'manage.py') return MANAGE_PY_WRITES.test(positional(args, 1) ?? '');
  }
  return false;
}

/** True for a write intent that is not the write the label names (a second file, an unknown target, `touch`, a `mv`). */
function unlabelledWrite(intent: Extract<Intent, { type: 'write' }>, label: Label): boolean {
  if (intent.file === undefined) return true;
  return !label.changesFile || label.file !== intent.file;
}

/**
 * True when the step changed something besides the file its label says it
 * changed: another file written by the same line (`sed -i f.py && pytest`,
 * a script's writes), a file created, moved, deleted or re-permissioned, a
 * package installed, a variable exported or a file sourced, a checkout, reset
 * or stash whose effect the label does not carry, a build's artifacts, a
 * formatter's rewrite.
 */
export function changesEnvironment(label: Label, intents: readonly Intent[], shell: ParsedShell | undefined): boolean {
  for (const intent of intents) {
    if (intent.type === 'install') return true;
    if (intent.type === 'write' && !intent.rejected && unlabelledWrite(intent, label)) return true;
    if (intent.type === 'orchestration' && intent.changes === true && !(label.changesFile && label.file === intent.file)) return true;
  }
  if (shell === undefined) return false;
  if (shell.env === true) return true;
  return shell.commands.some(commandChanges);
}
