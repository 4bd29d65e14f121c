import type { ParsedShell, SimpleCommand } from '../ports.js';
import type { Intent } from './intent.js';
import { BUILDERS, ENV_SETUP, HOUSEKEEPING, INSPECTORS, INSTALLERS, INSTALL_SUB, INTERPRETERS, JS_PACKAGE_MANAGERS, LISTERS, PRODUCERS, READERS, SEARCHERS, SUBMIT_MARKERS } from './command-tables.js';
import { gitIntent } from './shell-git.js';
import { hasFlag, headCount, positionals, sedEditLine, sedPrintRange } from './shell-args.js';
import { testRunnerIntent } from './shell-test-runner.js';
import { isBackupPath } from './file-roles.js';

type Resolve = (p: string) => string;

const GREP_VALUE_OPTS = new Set(['-e', '-f', '-m', '-A', '-B', '-C', '-d', '-D', '--include', '--exclude', '--exclude-dir', '-g', '-t', '-T', '-M', '-j', '--glob', '--type']);
/** Stream editors whose redirected output is a rewritten file (`sed 's/a/b/' f > f.new`). */
const TRANSFORMERS = new Set(['sed', 'awk', 'gawk', 'tr', 'envsubst', 'iconv', 'dos2unix', 'expand', 'unexpand']);
const HEAD_VALUE_OPTS = new Set(['-n', '-c', '--lines', '--bytes']);

function baseName(name: string): string {
  const i = name.lastIndexOf('/');
  return i < 0 ? name : name.slice(i + 1);
}

function searchIntent(base: string, args: string[], resolve: Resolve): Intent {
  if (base === 'find') {
    const roots: string[] = [];
    for (const a of args) {
      if (a.startsWith('-') || a === '(' || a === '!') break;
      roots.push(resolve(a));
    }
    return { type: 'inspect', kind: 'search', targets: roots };
  }
  const pos = positionals(args, GREP_VALUE_OPTS);
  const patternGiven = args.includes('-e') || args.includes('-f') || args.some((a) => a.startsWith('--regexp'));
  const targets = (patternGiven ? pos : pos.slice(1)).map(resolve);
  return { type: 'inspect', kind: 'search', targets };
}

function readIntent(base: string, args: string[], resolve: Resolve): Intent {
  const files = positionals(args, HEAD_VALUE_OPTS).map(resolve);
  const intent: Intent = { type: 'read', files };
  if (base === 'head') intent.range = [1, headCount(args)];
  if (base === 'cat' && args.every((a) => a === '-n' || !a.startsWith('-'))) {
    intent.whole = true;
    if (args.includes('-n')) intent.numbered = true;
  }
  if (base === 'nl' && (args.includes('-ba') || args.join(' ').includes('-b a'))) intent.numbered = true;
  return intent;
}

function sedIntent(args: string[], resolve: Resolve): Intent {
  const explicit = args.indexOf('-e');
  const pos = positionals(args, new Set(['-e', '-f', '-l']));
  const script = explicit >= 0 ? (args[explicit + 1] ?? '') : (pos[0] ?? '');
  const files = (explicit >= 0 ? pos : pos.slice(1)).map(resolve);
  if (hasFlag(args, 'i', '--in-place')) {
    const intent: Intent = { type: 'write', create: false };
    const file = files[files.length - 1];
    if (file !== undefined) intent.file = file;
    const range = sedEditLine(script);
    if (range) intent.range = range;
    return intent;
  }
  const intent: Intent = { type: 'read', files };
  const range = hasFlag(args, 'n', '--quiet') ? sedPrintRange(script) : undefined;
  if (range) intent.range = range;
  return intent;
}

function fileOpsIntent(base: string, args: string[], resolve: Resolve): Intent | undefined {
  const pos = positionals(args, new Set(['-t', '-S', '--suffix']));
  const first = pos[0];
  const last = pos[pos.length - 1];
  if (base === 'cp' || base === 'mv') {
    if (first === undefined || last === undefined || pos.length < 2) return { type: 'orchestration', kind: 'housekeeping' };
    if (isBackupPath(last)) return { type: 'orchestration', kind: 'housekeeping' };
    if (isBackupPath(first)) return { type: 'write', file: resolve(last), create: false, restore: true };
    if (base === 'mv') return { type: 'write', file: resolve(last), create: false, mayCreate: true, move: true };
    return { type: 'write', file: resolve(last), create: true };
  }
  if (base === 'touch') return first === undefined ? { type: 'orchestration', kind: 'housekeeping' } : { type: 'write', file: resolve(first), create: true, softCreate: true };
  if (base === 'tee') return first === undefined ? undefined : { type: 'write', file: resolve(first), create: false, mayCreate: !args.includes('-a') };
  if (base === 'patch') return first === undefined ? { type: 'write', create: false } : { type: 'write', file: resolve(first), create: false };
  if ((base === 'perl' || base === 'ruby') && args.some((a) => /^-[a-z]*i/.test(a))) {
    return last === undefined ? { type: 'write', create: false } : { type: 'write', file: resolve(last), create: false };
  }
  return undefined;
}

function installIntent(base: string, args: string[]): Intent | undefined {
  const pos = positionals(args, new Set(['-r', '-c', '-e', '-n', '--name', '-p', '--prefix', '-i', '--index-url']));
  if (/^pip\d*$/.test(base) && /^(show|list|freeze|check|--version)$/.test(pos[0] ?? args[0] ?? '')) return { type: 'inspect', kind: 'list', targets: [] };
  if (INSTALLERS.has(base) && INSTALL_SUB.test(pos[0] === 'pip' ? (pos[1] ?? '') : (pos[0] ?? ''))) return { type: 'install' };
  if (JS_PACKAGE_MANAGERS.has(base) && (pos.length === 0 || INSTALL_SUB.test(pos[0] ?? ''))) return { type: 'install' };
  if (ENV_SETUP.has(base)) return { type: 'install' };
  if (/^python(\d+(\.\d+)?)?$/.test(base)) {
    const mi = args.indexOf('-m');
    if (mi >= 0 && /^(pip|venv|virtualenv|ensurepip)$/.test(args[mi + 1] ?? '')) return installIntent('pip', args.slice(mi + 2)) ?? { type: 'install' };
    if (pos[0] !== undefined && baseName(pos[0]) === 'setup.py' && /^(develop|install|egg_info)$/.test(pos[1] ?? '')) return { type: 'install' };
  }
  return undefined;
}

function runIntent(name: string, base: string, args: string[], resolve: Resolve): Intent | undefined {
  if (INTERPRETERS.test(base)) {
    if (args.includes('-c') || args.includes('-e') || args.includes('-m')) return { type: 'run', kind: 'run_other' };
    const script = positionals(args, new Set(['-W', '-X', '-cp', '-classpath', '--class-path']))[0];
    if (script === undefined || script === '-' || /^(run|build|vet|check|fmt|doc|clippy)$/.test(script)) return { type: 'run', kind: 'run_other' };
    if (/\.\w+$/.test(script)) return { type: 'run', kind: 'run_script', file: resolve(script) };
    return { type: 'run', kind: 'run_other' };
  }
  if (BUILDERS.has(base)) return { type: 'run', kind: 'run_other' };
  if (name.includes('/')) return { type: 'run', kind: 'run_script', file: resolve(name) };
  return undefined;
}

/**
 * True when the command's output redirection is the command's point, a write of the file (`cat > f`, `sed ... > f`,
 * `echo x >> f`, a heredoc, a pipeline's last stage), not the log of a run (`pytest > out.txt`).
 */
export function redirectIsWrite(cmd: SimpleCommand): boolean {
  const base = baseName(cmd.name);
  if (base === 'sed' && hasFlag(cmd.args, 'i', '--in-place')) return false;
  return PRODUCERS.has(base) || TRANSFORMERS.has(base) || READERS.has(base) || cmd.heredoc || cmd.pipelineIndex > 0;
}

/** The intent of one simple command (method.md section 2, rules 1-7 before history). */
export function commandIntent(cmd: SimpleCommand, resolve: Resolve): Intent {
  const { name, args } = cmd;
  const base = baseName(name);
  if (SUBMIT_MARKERS.test(name) || (/^(echo|printf)$/.test(base) && args.some((a) => SUBMIT_MARKERS.test(a)))) return { type: 'orchestration', kind: 'finish' };
  if (base === 'submit') return { type: 'orchestration', kind: 'finish' };
  // CodeR's sub-agents end their part with a bare `succeed` or `fail`, handing over to the next one.
  if ((name === 'succeed' || name === 'fail') && args.length === 0) return { type: 'orchestration', kind: 'finish' };
  if (base === 'create' && args.length === 1 && args[0] !== undefined) return { type: 'write', file: resolve(args[0]), create: true };
  const target = cmd.writes[0];
  if (target !== undefined && redirectIsWrite(cmd)) return { type: 'write', file: resolve(target), create: false, mayCreate: true };
  if (base === 'git') return gitIntent(args, cmd.writes, resolve);
  const test = testRunnerIntent(name, args, resolve);
  if (test) return test;
  const install = installIntent(base, args);
  if (install) return install;
  if (base === 'sed') return sedIntent(args, resolve);
  const fileOp = fileOpsIntent(base, args, resolve);
  if (fileOp) return fileOp;
  if (HOUSEKEEPING.has(base)) return { type: 'orchestration', kind: 'housekeeping' };
  if (READERS.has(base)) return readIntent(base, args, resolve);
  if (base === 'awk' || base === 'gawk') {
    const files = positionals(args, new Set(['-F', '-v', '-f']))
      .slice(1)
      .map(resolve);
    return files.length > 0 ? { type: 'read', files } : { type: 'run', kind: 'run_other' };
  }
  if (SEARCHERS.has(base)) return searchIntent(base, args, resolve);
  if (LISTERS.has(base)) return { type: 'inspect', kind: 'list', targets: positionals(args, new Set(['-I', '-L', '-P'])).map(resolve) };
  if (INSPECTORS.has(base))
    return {
      type: 'inspect',
      kind: 'search',
      targets: positionals(args)
        .filter((a) => a.includes('.') || a.includes('/'))
        .map(resolve),
    };
  if (/^(echo|printf)$/.test(base)) return { type: 'orchestration', kind: 'message' };
  return runIntent(name, base, args, resolve) ?? { type: 'unknown' };
}

/** The intents of a parsed shell line and the index of its primary (first non-filler) command. */
export interface ShellIntents {
  intents: Intent[];
  primary: number;
}

function isFiller(cmd: SimpleCommand): boolean {
  return /^(echo|printf|clear|sleep|true|:)$/.test(cmd.name) && cmd.writes.length === 0 && !cmd.args.some((a) => SUBMIT_MARKERS.test(a));
}

/** The lines a second pipeline stage keeps of a read (`nl -ba f | sed -n '10,20p'`, `cat f | head -50`). */
function pipedRange(stage: SimpleCommand): [number, number] | undefined {
  if (stage.name === 'head') return [1, headCount(stage.args)];
  if (stage.name !== 'sed' || !hasFlag(stage.args, 'n', '--quiet')) return undefined;
  const script = positionals(stage.args, new Set(['-e']))[0] ?? stage.args[stage.args.indexOf('-e') + 1];
  return script === undefined ? undefined : sedPrintRange(script);
}

/** The stage of the pipeline starting at `head` that redirects into a file (`cat f | sed ... > g`), else `head`. */
function writingStage(cmds: SimpleCommand[], head: number): number {
  for (let j = head + 1; j < cmds.length && (cmds[j]?.pipelineIndex ?? 0) > 0; j++) if ((cmds[j]?.writes.length ?? 0) > 0) return j;
  return head;
}

/** Set-up that only prepares the command after it: installs, `chmod +x`, `mkdir`, `rm -rf build`, backups, `touch`. */
function isPreparatory(intent: Intent): boolean {
  if (intent.type === 'install') return true;
  if (intent.type === 'orchestration') return intent.kind === 'housekeeping' && intent.changes !== true;
  return intent.type === 'write' && intent.softCreate === true;
}

/**
 * Classifies the pipeline-head commands of a line, `tee` stages and later
 * stages that redirect into a file (`cat f | sed ... > f.new`). The primary
 * command is the first that is neither filler (`echo "==="`) nor set-up
 * (**choice**: `pip install x && python r.py` and `chmod +x t.sh && ./t.sh` are
 * the run, not rule 1/6 housekeeping); a line of set-up only keeps its first command.
 */
export function shellIntents(parsed: ParsedShell, resolve: Resolve): ShellIntents {
  const cmds = parsed.commands.filter((c) => c.pipelineIndex === 0 || c.name === 'tee' || c.writes.length > 0);
  const intents = cmds.map((c) => commandIntent(c, resolve));
  cmds.forEach((c, i) => {
    const intent = intents[i];
    const next = parsed.commands[parsed.commands.indexOf(c) + 1];
    if (c.pipelineIndex === 0 && intent?.type === 'read' && intent.range === undefined && next?.pipelineIndex === 1) {
      const range = pipedRange(next);
      if (range) intents[i] = { ...intent, range, whole: false };
    }
  });
  const heads = cmds.map((c, i) => (c.pipelineIndex === 0 && !isFiller(c) ? writingStage(cmds, i) : -1)).filter((i) => i >= 0);
  const substantive = heads.find((i) => !isPreparatory(intents[i] ?? { type: 'unknown' }));
  const primary = substantive ?? heads[0] ?? 0;
  return { intents, primary };
}
