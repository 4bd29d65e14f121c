/** Commands that only prepare the environment for the real command. */
const SKIPPED = new Set(['cd', 'pushd', 'popd', 'source', '.', 'export', 'set', 'unset', 'alias', 'ulimit', 'true', ':']);

/** Commands that run their arguments as a command, with the options they take a value for. */
const PREFIX_WRAPPERS: Record<string, { valueOpts: Set<string>; positional: number }> = {
  timeout: { valueOpts: new Set(['-s', '--signal', '-k', '--kill-after']), positional: 1 },
  time: { valueOpts: new Set(['-f', '--format', '-o', '--output']), positional: 0 },
  nohup: { valueOpts: new Set(), positional: 0 },
  env: { valueOpts: new Set(['-u', '--unset', '-C', '--chdir', '-S']), positional: 0 },
  sudo: { valueOpts: new Set(['-u', '-g', '-h', '-p', '-C', '-U']), positional: 0 },
  nice: { valueOpts: new Set(['-n', '--adjustment']), positional: 0 },
  stdbuf: { valueOpts: new Set(['-i', '-o', '-e']), positional: 0 },
  command: { valueOpts: new Set(), positional: 0 },
  exec: { valueOpts: new Set(['-a']), positional: 0 },
  xvfb_run: { valueOpts: new Set(), positional: 0 },
};

/** Dropped commands that change the shell for the commands after them (a later `cd` too: only a leading one is the line's context). */
const ENV_CHANGING = new Set(['cd', 'pushd', 'popd', 'source', '.', 'export', 'unset', 'alias']);

/** True for a dropped command (not a leading `cd`) that changes the environment later commands run in. */
export function changesShellEnv(name: string): boolean {
  return ENV_CHANGING.has(name);
}

/** True for a command that is dropped entirely (`cd`, `export`, `source`, ...). */
export function isSkipped(name: string): boolean {
  return SKIPPED.has(name);
}

/**
 * Peels wrappers (`timeout 10`, `time`, `nohup`, `env A=b`, `sudo -u x`) off a
 * word list and returns the real command words; empty when nothing remains.
 */
export function unwrap(words: string[]): string[] {
  let rest = words;
  for (let guard = 0; guard < 8; guard++) {
    while (rest.length > 0 && /^[A-Za-z_][A-Za-z0-9_]*=/.test(rest[0] ?? '')) rest = rest.slice(1);
    const head = rest[0];
    if (head === undefined) return rest;
    // Own keys only: `constructor -x` found Object's constructor here, and its missing `valueOpts` threw.
    const key = head.replace(/-/g, '_');
    const wrapper = Object.hasOwn(PREFIX_WRAPPERS, key) ? PREFIX_WRAPPERS[key] : undefined;
    if (!wrapper) return rest;
    let i = 1;
    while (i < rest.length) {
      const w = rest[i] ?? '';
      if (w === '--') {
        i++;
        break;
      }
      if (!w.startsWith('-') || w === '-') break;
      i += wrapper.valueOpts.has(w) ? 2 : 1;
    }
    if (head === 'env') while (i < rest.length && /^[A-Za-z_][A-Za-z0-9_]*=/.test(rest[i] ?? '')) i++;
    rest = rest.slice(i + wrapper.positional);
  }
  return rest;
}

/** Shells whose `-c SCRIPT` runs SCRIPT as a command line. */
const SHELLS = new Set(['sh', 'bash', 'zsh', 'dash', 'ksh']);

/**
 * The script of `sh -c "..."`, `bash -lc "..."`, `/bin/bash -ec '...'` (the first argument after the options, when
 * a cluster of short options holds `c`), else undefined: `bash script.sh` runs a file, not a command line.
 */
export function shellCommandArg(words: readonly string[]): string | undefined {
  const head = words[0];
  if (head === undefined || !SHELLS.has(head.slice(head.lastIndexOf('/') + 1))) return undefined;
  let command = false;
  for (let i = 1; i < words.length; i++) {
    const w = words[i]!;
    if (/^[-+][A-Za-z]+$/.test(w)) command ||= w.startsWith('-') && w.includes('c');
    else if (!w.startsWith('--')) return command ? w : undefined;
  }
  return undefined;
}
