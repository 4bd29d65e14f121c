/** Command-name tables of the shell classifier (method.md section 2). */

export const TEST_RUNNERS = new Set([
  'pytest',
  'py.test',
  'tox',
  'nox',
  'nosetests',
  'nose2',
  'trial',
  'jest',
  'mocha',
  'vitest',
  'ava',
  'karma',
  'phpunit',
  'rspec',
  'ctest',
  'runtests',
  'runtests.py',
  'bin/test',
]);
/** `python -m X` modules that run tests. */
export const TEST_MODULES = new Set(['pytest', 'unittest', 'tox', 'nox', 'nose', 'nose2', 'trial', 'xmlrunner']);
/** Build/task tools whose `test`-like subcommands run tests. */
export const TEST_SUBCOMMAND_TOOLS = new Set(['npm', 'yarn', 'pnpm', 'go', 'cargo', 'make', 'mvn', 'mvnw', 'gradle', 'gradlew', 'dotnet', 'bazel', 'sbt', 'ant', 'mix', 'deno', 'bun']);
export const TEST_SUBCOMMAND = /^(test|tests|check|verify|test[-:_].*|unittest|integration-test)$/;

export const RUNNER_PREFIXES: Record<string, number> = { poetry: 1, uv: 1, pipenv: 1, pdm: 1, hatch: 1, npx: 0, bunx: 0, bundle: 1, conda: 1 };

export const INSTALLERS = new Set(['pip', 'pip3', 'conda', 'mamba', 'apt', 'apt-get', 'yum', 'dnf', 'apk', 'brew', 'gem', 'poetry', 'pipenv', 'uv', 'pdm']);
export const INSTALL_SUB = /^(install|uninstall|add|remove|ci|i|update|upgrade|sync|download|develop|lock|env|create|activate|venv)$/;
export const JS_PACKAGE_MANAGERS = new Set(['npm', 'yarn', 'pnpm', 'bun']);
export const ENV_SETUP = new Set(['virtualenv', 'pyenv', 'nvm', 'rustup', 'sdk', 'update-alternatives', 'apt-cache', 'locale-gen', 'ldconfig']);

export const SEARCHERS = new Set(['grep', 'egrep', 'fgrep', 'rg', 'ag', 'ack', 'find', 'fd', 'locate', 'zgrep', 'git-grep']);
export const LISTERS = new Set(['ls', 'tree', 'du', 'll', 'dir']);
export const INSPECTORS = new Set([
  'wc',
  'which',
  'whereis',
  'type',
  'file',
  'stat',
  'diff',
  'cmp',
  'md5sum',
  'sha1sum',
  'sha256sum',
  'pwd',
  'whoami',
  'uname',
  'env',
  'printenv',
  'readlink',
  'realpath',
  'basename',
  'dirname',
  'date',
  'hostname',
  'df',
  'ps',
  'id',
  'nproc',
  'free',
  'lsb_release',
  'jq',
  'strings',
  'xxd',
  'hexdump',
  'od',
  'sort',
  'uniq',
  'cut',
  'test',
  '[',
  '[[',
  'xargs',
]);
export const READERS = new Set(['cat', 'head', 'tail', 'nl', 'less', 'more', 'bat', 'batcat', 'view', 'tac', 'zcat']);

export const HOUSEKEEPING = new Set(['rm', 'rmdir', 'mkdir', 'chmod', 'chown', 'ln', 'clear', 'sleep', 'kill', 'pkill', 'killall', 'wait', 'history', 'reset', 'unlink', 'exit', 'trap', 'shopt']);
export const PRODUCERS = new Set(['', 'cat', 'echo', 'printf', 'tee', 'yes']);
export const INTERPRETERS = /^(python(\d+(\.\d+)?)?|pypy3?|ipython|node|nodejs|ruby|perl|php|bash|sh|zsh|dash|java|Rscript|julia|lua|tsx|ts-node|deno|bun|groovy|scala|kotlin|dotnet|go|cargo)$/;
export const BUILDERS = new Set([
  'make',
  'cmake',
  'ninja',
  'mvn',
  'gradle',
  'gradlew',
  'javac',
  'gcc',
  'g++',
  'cc',
  'clang',
  'clang++',
  'tsc',
  'rustc',
  'ant',
  'sbt',
  'bazel',
  'meson',
  'cython',
  'f2py',
  'npm',
  'yarn',
  'pnpm',
  'curl',
  'wget',
  'django-admin',
  'flake8',
  'mypy',
  'pylint',
  'ruff',
  'black',
  'isort',
  'eslint',
  'prettier',
  'sphinx-build',
  'jar',
  'mvnw',
  'expr',
  'bc',
]);

/** Marker words by which mini-swe-agent agents submit. */
export const SUBMIT_MARKERS = /COMPLETE_TASK_AND_SUBMIT_FINAL_OUTPUT|MINI_SWE_AGENT_FINAL_OUTPUT/;
