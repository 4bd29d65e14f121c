/**
 * Ports through which the pure core uses syntax analysis. `src/syntax/`
 * implements them with tree-sitter; tests may pass simpler fakes.
 */

/** One simple command of a shell line, after splitting lists and pipelines. */
export interface SimpleCommand {
  /** Command name (`grep`, `python`, `sed`), after skipping wrappers and env assignments. */
  name: string;
  args: string[];
  /** Output redirections to files (`>`, `>>`, `&>`, heredoc targets). */
  writes: string[];
  /** True when the command feeds a heredoc. */
  heredoc: boolean;
  /** Position in the pipeline (0 = first stage). */
  pipelineIndex: number;
}

/** A parsed shell line. */
export interface ParsedShell {
  /** Every simple command in source order, wrappers (`cd`, `export`, `timeout`, ...) removed. */
  commands: SimpleCommand[];
  /** Directory changed to by a leading `cd DIR`, if any. */
  cd?: string;
  /**
   * True when the line changes the shell's environment for later commands: it sets or unsets variables,
   * sources a file, defines an alias (`export`, `source`, `.`, `unset`, `alias`), or changes directory
   * anywhere but at its head or with nothing after it (`cd src`, `make && cd build`, `pushd`, `popd`).
   */
  env?: true;
  /** False when the parser reported syntax errors (the commands are best effort). */
  ok: boolean;
}

export interface ShellAnalyzer {
  parse(command: string): ParsedShell;
}

export interface ScopeResolver {
  /**
   * Qualified name of the innermost class/function enclosing `range` in the
   * given file text (`Outer.method`), `<module>` when at top level, or
   * undefined when the language is not supported. `run`: an object the caller keeps for one run (a session, a scored
   * trajectory; only its identity is used): what the resolver adapts to a run's own texts (which paths it answers from
   * indentation for a while) is kept per run, so that no run's answers depend on another run's lookups.
   */
  scopeAt(file: string, text: string, range: [number, number], run?: object): string | undefined;
}

/** All syntax ports the core needs. */
export interface Analyzers {
  shell: ShellAnalyzer;
  scope: ScopeResolver;
}
