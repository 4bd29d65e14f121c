import Parser from 'tree-sitter';
import Bash from 'tree-sitter-bash';
import { LRUCache } from 'lru-cache';
import type { ParsedShell, ShellAnalyzer, SimpleCommand } from '../core/ports.js';
import { collectCommands, type RawCommand } from './shell-walk.js';
import { isSkipped, unwrap } from './shell-wrappers.js';

/** Options of {@link createShellAnalyzer}. */
export interface ShellAnalyzerOptions {
  /** Parsed lines kept in the LRU cache (default 5000). */
  cacheSize?: number;
}

function toSimple(raw: RawCommand): SimpleCommand | undefined {
  const words = unwrap(raw.words);
  const [name, ...args] = words;
  if (name === undefined) {
    if (raw.writes.length === 0) return undefined;
    return { name: '', args: [], writes: raw.writes, heredoc: raw.heredoc, pipelineIndex: raw.pipelineIndex };
  }
  return { name, args, writes: raw.writes, heredoc: raw.heredoc, pipelineIndex: raw.pipelineIndex };
}

/** Parses one shell line; never throws (a failure yields ok=false and no commands). */
export function parseShell(parser: Parser, command: string): ParsedShell {
  let tree: Parser.Tree;
  try {
    tree = parser.parse(command);
  } catch {
    return { commands: [], ok: false };
  }
  const raw: RawCommand[] = [];
  collectCommands(tree.rootNode, 0, raw);
  const commands: SimpleCommand[] = [];
  let cd: string | undefined;
  for (const r of raw) {
    const head = r.words[0];
    if (head !== undefined && isSkipped(head)) {
      if (head === 'cd' && commands.length === 0 && r.words[1] !== undefined) cd = r.words[1];
      continue;
    }
    const simple = toSimple(r);
    if (simple) commands.push(simple);
  }
  const parsed: ParsedShell = { commands, ok: !tree.rootNode.hasError };
  if (cd !== undefined) parsed.cd = cd;
  return parsed;
}

/**
 * A {@link ShellAnalyzer} over tree-sitter-bash: splits lists and pipelines,
 * drops wrappers, collects file redirections and heredocs. Results are cached
 * (LRU) because agents repeat commands; callers must not mutate them.
 */
export function createShellAnalyzer(options: ShellAnalyzerOptions = {}): ShellAnalyzer {
  const parser = new Parser();
  parser.setLanguage(Bash as unknown as Parser.Language);
  const cache = new LRUCache<string, ParsedShell>({ max: options.cacheSize ?? 5000 });
  return {
    parse(command: string): ParsedShell {
      const hit = cache.get(command);
      if (hit) return hit;
      const parsed = parseShell(parser, command);
      cache.set(command, parsed);
      return parsed;
    },
  };
}
