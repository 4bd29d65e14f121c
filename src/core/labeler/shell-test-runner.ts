import type { Intent } from './intent.js';
import { RUNNER_PREFIXES, TEST_MODULES, TEST_RUNNERS, TEST_SUBCOMMAND, TEST_SUBCOMMAND_TOOLS } from './command-tables.js';
import { positionals } from './shell-args.js';

const PY_VALUE_OPTS = new Set(['-W', '-X', '-Q']);

function baseName(name: string): string {
  const i = name.lastIndexOf('/');
  return i < 0 ? name : name.slice(i + 1);
}

/** The first argument that names a test path (`tests/x.py::T::m` -> `tests/x.py`). */
function testTarget(args: string[], resolve: (p: string) => string): string | undefined {
  for (const a of positionals(args, new Set(['-k', '-m', '-p', '-c', '-o', '--rootdir', '-n', '--settings', '--parallel']))) {
    const path = a.split('::')[0] ?? a;
    if (path.includes('/') || /\.(py|js|ts|go|rs|java)$/.test(path)) return resolve(path);
  }
  return undefined;
}

/**
 * Rule 2: recognises test runners (`pytest`, `python -m pytest`, `manage.py test`,
 * `runtests.py`, `npm test`, `go test`, `make test`, `mvn test`, `poetry run pytest`, ...).
 */
export function testRunnerIntent(name: string, args: string[], resolve: (p: string) => string): Intent | undefined {
  const base = baseName(name);
  // Own keys only: `valueOf run pytest` found Object's `valueOf` here and was read as a runner prefix.
  const prefixSkip = Object.hasOwn(RUNNER_PREFIXES, base) ? RUNNER_PREFIXES[base] : undefined;
  if (prefixSkip !== undefined) {
    const rest = positionals(args, new Set(['-n', '--name', '-p', '--prefix', '--with']));
    const sub = prefixSkip === 0 ? rest : rest.slice(1);
    if (prefixSkip === 1 && !/^(run|exec)$/.test(rest[0] ?? '')) return undefined;
    const [head, ...tail] = sub;
    if (head === undefined) return undefined;
    const i = args.indexOf(head);
    return testRunnerIntent(head, i >= 0 ? args.slice(i + 1) : tail, resolve);
  }
  if (TEST_RUNNERS.has(base) || name === 'bin/test' || name === './bin/test' || /^runtests\b/.test(base)) {
    return { type: 'test', ...opt(testTarget(args, resolve)) };
  }
  if (/^(python(\d+(\.\d+)?)?|pypy3?|coverage)$/.test(base)) {
    const mi = args.indexOf('-m');
    if (mi >= 0) {
      const mod = args[mi + 1] ?? '';
      const after = args.slice(mi + 2);
      if (TEST_MODULES.has(mod) || (mod === 'django' && after[0] === 'test')) return { type: 'test', ...opt(testTarget(after, resolve)) };
      if (mod === 'coverage') return testRunnerIntent('coverage', after, resolve);
      return undefined;
    }
    const pos = positionals(args, PY_VALUE_OPTS);
    const script = pos[0];
    if (base === 'coverage') return script === 'run' ? testRunnerIntent('python', args.slice(args.indexOf('run') + 1), resolve) : undefined;
    if (script === undefined || args.includes('-c')) return undefined;
    if (baseName(script) === 'manage.py' && pos[1] === 'test') return { type: 'test', ...opt(testTarget(pos.slice(2), resolve)) };
    if (baseName(script).startsWith('runtests')) return { type: 'test', ...opt(testTarget(pos.slice(1), resolve)) };
    return undefined;
  }
  if (base === 'django-admin' && positionals(args)[0] === 'test') return { type: 'test' };
  // `./manage.py test ...`, run as the script it is: as `python manage.py test ...`.
  if (base === 'manage.py') {
    const pos = positionals(args);
    return pos[0] === 'test' ? { type: 'test', ...opt(testTarget(pos.slice(1), resolve)) } : undefined;
  }
  if (TEST_SUBCOMMAND_TOOLS.has(base)) {
    const pos = positionals(args, new Set(['-C', '-f', '-p', '--prefix', '-pl', '-P']));
    const sub = pos[0] === 'run' || pos[0] === 'run-script' ? pos[1] : pos[0];
    if (sub !== undefined && TEST_SUBCOMMAND.test(sub)) return { type: 'test' };
    if (/^(mvn|mvnw|gradle|gradlew)$/.test(base) && (pos.some((p) => /^(test|verify|check)$/.test(p)) || args.some((a) => a.startsWith('-Dtest=')))) return { type: 'test' };
  }
  return undefined;
}

function opt(file: string | undefined): { file?: string } {
  return file === undefined ? {} : { file };
}
