import type Parser from 'tree-sitter';
import { LRUCache } from 'lru-cache';
import type { ParsedShell, ShellAnalyzer, SimpleCommand } from '../core/ports.js';
import { newParser } from './grammars.js';
import { parseBudget } from './parse-budget.js';
import type { CacheStats } from './python-scope.js';
import { collectCommands, type RawCommand } from './shell-walk.js';
import { changesShellEnv, isSkipped, shellCommandArg, unwrap } from './shell-wrappers.js';

/** Options of {@link createShellAnalyzer}. */
export interface ShellAnalyzerOptions {
  /** Parsed lines kept in the LRU cache (default 5000). */
  cacheSize?: number;
  /** Bytes the cache may hold, command text and parse results counted (default 32 MiB). */
  cacheBytes?: number;
  /** Characters of a command sent to tree-sitter (default {@link MAX_PARSE_CHARS}); see {@link parseShell}. */
  maxParseChars?: number;
  /** tree-sitter operations one parse may take (default {@link PARSE_BUDGET_OPS}); see {@link parseShell}. */
  parseBudgetOps?: number;
}

/**
 * Characters of one command tree-sitter parses. A longer command (a heredoc writing a large file, a
 * generated script) is analysed by its first 16 KiB, cut at a line end, and its parse marked not ok:
 * tree-sitter-bash takes ~5 ms per KiB of real commands (pipes, quotes), so a 1 MB command held the
 * event loop of every session for seconds. The longest command of the 14,383 real steps of the
 * calibration set has 6,111 characters.
 */
export const MAX_PARSE_CHARS = 16 * 1024;
/**
 * Operations of one parse (parse-budget.ts: counted, not timed, so a command parses or not alike on every machine).
 * tree-sitter-bash's error recovery is superlinear: 16 KiB of `a|a|...|` (a trailing `|`) took 6 s, so three such
 * steps from one tenant held every tenant's event loop for 13 s. Real commands take far fewer: at most 1,900 on the
 * corpus and calibration runs (a heredoc is one token), 16,200 on 16 KiB of `grep ... && python -c ...` lines. A
 * parse over the budget (or its CPU backstop) is halted and the command counts as unparsed (no commands, ok=false),
 * as one tree-sitter throws on. Only commands over {@link BUDGETED_CHARS} carry the budget.
 */
export const PARSE_BUDGET_OPS = 100_000;
const BUDGETED_CHARS = 512;
/** Commands longer than this are analysed but not cached (a large heredoc is rarely repeated). */
const MAX_CACHED_CHARS = 16 * 1024;

/**
 * Operators (`|`, `&`, `;`) tree-sitter sees at most. Its error recovery costs about the square of the statements
 * an unfinished chain holds, and it asks the progress callback nothing meanwhile, so the parse budget alone does not
 * bound it: 8,150 `a|` ending in `|` took 2-3 s past a 100 ms budget. Each operator also adds a command or a stage
 * the walk and the labeller read: at 1,024 a 1 MB step of `echo a && ...` or `cat a | grep b | ...` cost 30-47 ms of
 * parse and walk (its tree, ~1,000 nodes through the binding), ~100 ms of server CPU in all (docs/reliability.md,
 * T102); at 256, 4-10 ms. The 4,592 real commands of the corpus and calibration runs hold at most 25. Operators in a
 * heredoc's body are text to tree-sitter, not statements: they count only towards {@link MAX_ALL_OPERATORS}, so a
 * 300-line C or Java file written with `cat <<EOF` (a statement's `;` a line) is still parsed whole, as before T102.
 */
export const MAX_OPERATORS = 256;
/**
 * Operators tree-sitter sees at most, heredoc bodies included (the bound before T102): where the scan below takes
 * for a heredoc what is not one (`echo "<<E"`), the line is bounded as it was before, never worse.
 */
export const MAX_ALL_OPERATORS = 1024;

const isOperator = (c: number): boolean => c === 124 /* | */ || c === 38 /* & */ || c === 59; /* ; */

/**
 * Where the (MAX_OPERATORS + 1)th operator outside heredoc bodies, or the (MAX_ALL_OPERATORS + 1)th of all, stands in
 * `command` before `cut`; `cut` when there is neither. A body runs from the line after its `<<WORD` (`<<-`: tabs
 * before the closing word allowed; quotes around the word) to the line that is the word; several heredocs of one line
 * follow each other.
 */
function operatorCut(command: string, cut: number): number {
  let ops = 0;
  let all = 0;
  const words: Array<{ word: string; tabs: boolean }> = [];
  for (let i = 0; i < cut; i++) {
    const c = command.charCodeAt(i);
    if (c === 10 /* \n */ && words.length > 0) {
      let at = i + 1;
      for (let k = 0; k < words.length && at < cut;) {
        let end = command.indexOf('\n', at);
        if (end < 0 || end > cut) end = cut;
        let from = at;
        if (words[k]!.tabs) while (from < end && command.charCodeAt(from) === 9) from++;
        if (end - from === words[k]!.word.length && command.startsWith(words[k]!.word, from)) k++;
        else for (let q = at; q < end; q++) if (isOperator(command.charCodeAt(q)) && ++all > MAX_ALL_OPERATORS) return q;
        at = end + 1;
      }
      words.length = 0;
      i = at - 1;
      continue;
    }
    if (c === 60 /* < */ && command.charCodeAt(i + 1) === 60 && command.charCodeAt(i + 2) !== 60 && command.charCodeAt(i - 1) !== 60) {
      const heredoc = heredocWord(command, i + 2, cut);
      if (heredoc !== undefined) words.push(heredoc);
      continue;
    }
    if (isOperator(c) && (++ops > MAX_OPERATORS || ++all > MAX_ALL_OPERATORS)) return i;
  }
  return cut;
}

/** The closing word of a heredoc whose `<<` ends before `at`: `-` for tabs, blanks, the word bare or quoted; undefined when none. */
function heredocWord(command: string, at: number, cut: number): { word: string; tabs: boolean } | undefined {
  const tabs = command.charCodeAt(at) === 45; /* - */
  let j = tabs ? at + 1 : at;
  while (j < cut && (command.charCodeAt(j) === 32 || command.charCodeAt(j) === 9)) j++;
  const quote = command[j] === "'" || command[j] === '"' ? command[j++] : undefined;
  const from = j;
  while (j < cut && (quote !== undefined ? command[j] !== quote : /[\w.-]/.test(command[j]!))) j++;
  return j > from ? { word: command.slice(from, j), tabs } : undefined;
}

/**
 * The part of `command` tree-sitter sees: all of it, or a prefix ending at a line end (never inside a surrogate
 * pair) within `maxChars`, before its first NUL and before its (MAX_OPERATORS + 1)th operator ({@link operatorCut}).
 * A NUL ends the command: no shell receives one (argv and `-c` scripts are C strings), and tree-sitter reads each
 * as the end of input, so a run of them cost about its length squared without asking the progress callback
 * (16 KiB of NULs: 1.0-1.1 s past the 100 ms budget).
 */
export function parsedPart(command: string, maxChars = MAX_PARSE_CHARS): string {
  let cut = command.length;
  if (cut > maxChars) {
    cut = command.lastIndexOf('\n', maxChars);
    if (cut <= 0) cut = maxChars;
  }
  const nul = command.indexOf('\0');
  if (nul >= 0 && nul < cut) cut = nul;
  cut = operatorCut(command, cut);
  if (cut === command.length) return command;
  const code = command.charCodeAt(cut - 1);
  if (code >= 0xd800 && code <= 0xdbff) cut--;
  return command.slice(0, cut);
}

/** Approximate bytes a cached entry holds (UTF-16 text, words and per-object overheads). */
function entryBytes(command: string, parsed: ParsedShell): number {
  let bytes = 2 * command.length + 64;
  for (const c of parsed.commands) {
    bytes += 96 + 2 * c.name.length;
    for (const a of c.args) bytes += 16 + 2 * a.length;
    for (const w of c.writes) bytes += 16 + 2 * w.length;
  }
  return bytes;
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

/** Levels of `bash -c "sh -c '...'"` read; deeper scripts are left as the shell command they are. */
const MAX_SHELL_NESTING = 3;

/**
 * Parses one shell line; never throws (a failure yields ok=false and no commands). Bounded work: at most
 * `maxChars` characters are parsed (a longer command is cut at a line end), for at most `budgetOps` operations (then no
 * commands, ok=false), and at most MAX_WALK_NODES syntax nodes are walked; a command cut by length or walk
 * yields the commands found so far and ok=false.
 *
 * One budget a command: the `sh -c` scripts it holds are parsed under the line's own budget (`budget`, made at depth
 * 0), not a fresh one each. A budget each let one 16 KiB step of two `bash -c '<8 KiB of )>'` take two CPU backstops
 * (~420 ms of every tenant's event loop against ~220 for one; docs/reliability.md, T96).
 */
export function parseShell(
  parser: Parser,
  command: string,
  maxChars = MAX_PARSE_CHARS,
  budgetOps = PARSE_BUDGET_OPS,
  depth = 0,
  budget: (() => boolean) | undefined = command.length > BUDGETED_CHARS ? parseBudget(budgetOps) : undefined,
): ParsedShell {
  const part = parsedPart(command, maxChars);
  let tree: Parser.Tree | undefined;
  try {
    if (budget === undefined) tree = parser.parse(part);
    else tree = parser.parse(part, null, { progressCallback: budget });
  } catch {
    tree = undefined;
  }
  if (!tree) {
    parser.reset(); // a halted parse would otherwise resume on the next command
    return { commands: [], ok: false };
  }
  const raw: RawCommand[] = [];
  const complete = collectCommands(tree.rootNode, 0, raw) && part.length === command.length;
  const commands: SimpleCommand[] = [];
  let cd: string | undefined;
  let innerCd: string | undefined;
  let env = false;
  let innerOk = true;
  for (const r of raw) {
    // `sh -c "..."` / `bash -lc "..."`: its script's commands stand for it (their cd and environment do not outlast it).
    const script = depth < MAX_SHELL_NESTING ? shellCommandArg(unwrap(r.words)) : undefined;
    if (script !== undefined) {
      const inner = parseShell(parser, script, maxChars, budgetOps, depth + 1, budget);
      if (commands.length === 0) innerCd ??= inner.cd;
      for (const c of inner.commands) commands.push({ ...c, pipelineIndex: c.pipelineIndex + r.pipelineIndex });
      innerOk &&= inner.ok;
      continue;
    }
    const head = r.words[0];
    if (head !== undefined && isSkipped(head)) {
      if (head === 'cd' && commands.length === 0 && r.words[1] !== undefined) cd = r.words[1];
      else if (changesShellEnv(head)) env = true;
      continue;
    }
    const simple = toSimple(r);
    if (simple) commands.push(simple);
  }
  const parsed: ParsedShell = { commands, ok: complete && innerOk && !tree.rootNode.hasError };
  if ((cd ?? innerCd) !== undefined) parsed.cd = cd ?? innerCd;
  // A line that only changes directory moves a persistent shell for the steps after it.
  if (env || (cd !== undefined && commands.length === 0)) parsed.env = true;
  return parsed;
}

/**
 * A {@link ShellAnalyzer} over tree-sitter-bash: splits lists and pipelines,
 * drops wrappers, collects file redirections and heredocs. Results are cached
 * (LRU) because agents repeat commands; callers must not mutate them.
 */
export function createShellAnalyzer(options: ShellAnalyzerOptions = {}): ShellAnalyzer & { cacheStats(): CacheStats } {
  let parser: Parser | undefined; // made by the first parse that misses the cache
  const maxChars = options.maxParseChars ?? MAX_PARSE_CHARS;
  const budgetOps = options.parseBudgetOps ?? PARSE_BUDGET_OPS;
  const cache = new LRUCache<string, ParsedShell>({
    max: options.cacheSize ?? 5000,
    maxSize: options.cacheBytes ?? 32 * 1024 * 1024,
    sizeCalculation: (parsed, command) => entryBytes(command, parsed),
  });
  return {
    parse(command: string): ParsedShell {
      const hit = cache.get(command);
      if (hit) return hit;
      const parsed = parseShell((parser ??= newParser('bash')), command, maxChars, budgetOps);
      if (command.length <= MAX_CACHED_CHARS) cache.set(command, parsed);
      return parsed;
    },
    cacheStats: () => ({ entries: cache.size, bytes: cache.calculatedSize }),
  };
}
