import type Parser from 'tree-sitter';
import { LRUCache } from 'lru-cache';
import { sampledTextKey } from '../core/memory/packed-text.js';
import type { ScopeResolver } from '../core/ports.js';
import { newParser } from './grammars.js';
import { parseBudget } from './parse-budget.js';
import { indentScope, indexPython, plainIndentScope, type IndentIndex } from './python-indent-scope.js';

/** Options of {@link createPythonScopeResolver}. */
export interface ScopeResolverOptions {
  /** Parse trees kept per (file, text hash) (default 256). */
  cacheSize?: number;
  /** Bytes the kept parse trees may hold, estimated from their node counts (default 64 MiB). */
  cacheBytes?: number;
  /** Characters of a file tree-sitter parses (default {@link MAX_SCOPE_PARSE_CHARS}); a longer file's scopes come from indentation. */
  maxParseChars?: number;
  /** tree-sitter operations one parse may take (default {@link SCOPE_PARSE_BUDGET_OPS}); a costlier file's scopes come from indentation. */
  parseBudgetOps?: number;
  /** Characters past which a text with syntax errors sends its path to indentation for a while (default {@link ERROR_TEXT_CHARS}). */
  errorTextChars?: number;
  /**
   * Reparse a file's new text from the tree of its previous text (tree-sitter's incremental parsing: the tree is the
   * one a fresh parse gives, built mostly from the old tree's unchanged parts). Default true; false parses afresh.
   */
  incremental?: boolean;
  /**
   * Answer from indentation, without parsing, where the text is plain enough that it gives the tree's scope
   * ({@link plainIndentScope}; the same scopes, checked on every lookup of the corpus and calibration runs). Default
   * true; false asks tree-sitter for every lookup it would have before.
   */
  plainFromIndentation?: boolean;
}

/**
 * Largest file text sent to tree-sitter-python. A parse of an 850 KB file took 1.4 s of the event loop and
 * its tree ~138 MB; a larger file's scopes are read from its indentation ({@link indentScope}), in linear
 * time and with nothing kept.
 */
export const MAX_SCOPE_PARSE_CHARS = 128 * 1024;
/**
 * Operations of one parse (parse-budget.ts: counted, not timed, so a text parses or not alike on every machine).
 * tree-sitter-python's error recovery is superlinear on text that is not Python: 640 lines of 99 dots (64 KiB) took
 * 3.9 s, 128 KiB 12.8 s, one view step of a file a tenant had just written. Real files take far fewer: at most
 * 51,900 on the corpus and calibration runs, 122,000 on the CPython 3.13 library's files of 2-128 KiB. A parse over
 * the budget (or its CPU backstop) is halted and the text's scopes come from indentation, as a larger file's do, for
 * the next {@link INDENT_LOOKUPS} lookups of its path. Texts up to {@link BUDGETED_CHARS} carry no budget.
 */
export const SCOPE_PARSE_BUDGET_OPS = 500_000;
const BUDGETED_CHARS = 2048;
/**
 * A path whose text has syntax errors and is over this many characters, {@link STRIKES} lookups in a row, gets its
 * scopes from indentation for the next {@link INDENT_LOOKUPS} lookups. tree-sitter's error recovery makes every reparse of such a text cost about its
 * length (an incremental one too): a session scrolling 40-line views through three growing files of text that is
 * not Python cost 42 ms a step on average at 5,000 steps (211 s in all, quadratic), each step up to 190 ms.
 * Indentation gives the tree's scopes on every range of the real files tested (test/syntax/python-scope.test.ts).
 */
export const ERROR_TEXT_CHARS = 2048;
/**
 * Lookups of a path answered from indentation after its parse ran over the budget or met {@link ERROR_TEXT_CHARS};
 * doubled each time the next parse of the path does so again, up to {@link MAX_INDENT_LOOKUPS}.
 */
export const INDENT_LOOKUPS = 64;
/**
 * Lookups in a row on long texts with syntax errors before a path answers from indentation. Real runs view and edit
 * files that do not parse cleanly (a window of a file, an edit half done) a few times; answering those from
 * indentation at once left the incremental reparse of later texts without its tree (label-per-step: incremental vs
 * afresh ×0.96-1.00, from ×0.82-0.88).
 */
export const STRIKES = 3;
const MAX_INDENT_LOOKUPS = 4096;
/** Paths one run keeps indentation spans for (the oldest is forgotten first). */
const MAX_INDENT_PATHS = 256;
/**
 * Texts whose indentation index is kept, by path and text (most texts are looked up a few times in a row; the
 * rollouts of one task look the same texts up in turn, and kept one per path the index was built again each time).
 */
const INDEXED_TEXTS = 64;
/**
 * Bytes of texts and line arrays the indexes keep (estimated, {@link indexBytes}); a bigger index is not kept. Kept
 * by count alone, 32 distinct 850 KB files held ~38 MB after their sessions ended (the flood drill's heap grew 26 %).
 */
export const INDEX_CACHE_BYTES = 1024 * 1024;

/** Estimated bytes of an index: its text (one byte a character at least) and 13 bytes of arrays a line. */
function indexBytes(ix: IndentIndex): number {
  return ix.text.length + 13 * ix.flags.length + 64;
}

/**
 * A path's lookups left that indentation answers, the span they started from (0: none yet), and how many of its
 * lookups in a row met a long text with syntax errors.
 */
interface IndentSpan {
  left: number;
  span: number;
  strikes: number;
}
type IndentSpans = Map<string, IndentSpan>;
/** Approximate bytes of a parse tree per syntax node (measured: ~4 MB for 34k nodes), plus its source text. */
const BYTES_PER_NODE = 128;

/** A cached parse tree, its text, and how often it was looked up again since it was parsed. */
interface TreeEntry {
  tree: Parser.Tree;
  text: string;
  hits: number;
  bytes: number;
  /** A text over the resolver's `errorTextChars` whose tree has syntax errors (read once, at the parse). */
  broken: boolean;
  /** A tree with no syntax error: a copy of it (a reparse of its own text from it) costs ~4 % of a fresh parse. */
  clean: boolean;
}

/** What a bounded cache holds (tests, metrics). */
export interface CacheStats {
  entries: number;
  bytes: number;
}

const SCOPES = new Set(['function_definition', 'class_definition']);

/**
 * Innermost class/function containing 0-based rows [start, end], as a dotted name: from the root, into the first
 * named child whose rows hold the range, and so on down. Walked with a cursor, which makes no node objects (each
 * one made would also be kept by the tree and moved by every later `edit` of it), except for a scope's name.
 */
function scopeOf(tree: Parser.Tree, start: number, end: number): string {
  const names: string[] = [];
  const cursor = tree.walk();
  while (cursor.gotoFirstChild()) {
    let found = false;
    do {
      if (cursor.nodeIsNamed && cursor.startPosition.row <= start && cursor.endPosition.row >= end) found = true;
    } while (!found && cursor.gotoNextSibling());
    if (!found) break;
    if (SCOPES.has(cursor.nodeType)) {
      const name = cursor.currentNode.childForFieldName('name')?.text;
      if (name) names.push(name);
    }
  }
  return names.length > 0 ? names.join('.') : '<module>';
}

/**
 * The zero-based (row, column) of UTF-16 offset `offset` in `text`, columns in code units as node tree-sitter counts
 * them, counted on from `from`, whose point is `at`: the edit's three points share the texts' common prefix, which
 * is scanned once.
 */
function pointFrom(text: string, from: number, at: Parser.Point, offset: number): Parser.Point {
  let row = at.row;
  let lineStart = from - at.column;
  for (let i = text.indexOf('\n', from); i >= 0 && i < offset; i = text.indexOf('\n', i + 1)) {
    row++;
    lineStart = i + 1;
  }
  return { row, column: offset - lineStart };
}

/** Characters compared at once by {@link commonPrefix} and {@link commonSuffix} (as string slices: no copy). */
const BLOCK = 256;

/** Length of the common prefix of `a` and `b`: whole blocks compared as slices, then character by character. */
function commonPrefix(a: string, b: string): number {
  const shorter = Math.min(a.length, b.length);
  let n = 0;
  while (n + BLOCK <= shorter && a.slice(n, n + BLOCK) === b.slice(n, n + BLOCK)) n += BLOCK;
  while (n < shorter && a.charCodeAt(n) === b.charCodeAt(n)) n++;
  return n;
}

/** Length of the common suffix of `a` and `b`, at most `most` characters (what the common prefix left). */
function commonSuffix(a: string, b: string, most: number): number {
  let n = 0;
  while (n + BLOCK <= most && a.slice(a.length - n - BLOCK, a.length - n) === b.slice(b.length - n - BLOCK, b.length - n)) n += BLOCK;
  while (n < most && a.charCodeAt(a.length - 1 - n) === b.charCodeAt(b.length - 1 - n)) n++;
  return n;
}

/**
 * The edit that turns `before` into `after`, as one changed span between their common prefix and common suffix:
 * exact for any pair of texts (a span wider than what changed only makes the reparse do more). `toLineEnd`: the
 * span ends at the end of its last line instead (newline included; see {@link reparseEdit}).
 */
export function textEdit(before: string, after: string, toLineEnd = false): Parser.Edit {
  const start = commonPrefix(before, after);
  let tail = commonSuffix(before, after, Math.min(before.length, after.length) - start);
  if (toLineEnd && tail > 0) {
    const newline = before.indexOf('\n', before.length - tail);
    tail = newline < 0 ? 0 : before.length - newline - 1;
  }
  const oldEnd = before.length - tail;
  const newEnd = after.length - tail;
  const startPosition = pointFrom(before, 0, { row: 0, column: 0 }, start);
  return {
    startIndex: start,
    oldEndIndex: oldEnd,
    newEndIndex: newEnd,
    startPosition,
    oldEndPosition: pointFrom(before, start, startPosition, oldEnd),
    newEndPosition: pointFrom(after, start, startPosition, newEnd),
  };
}

/**
 * The edit a file's previous tree is given before its new text is reparsed: {@link textEdit}'s span, its end moved
 * to the end of its line. With the exact span, an edit inside a block's last lines made tree-sitter-python lex the
 * block's `_newline` anew and then meet the next statement with another external scanner state than the old tree's
 * (`_newline` against `_dedent`): it skips such a node rather than descend into it, lexes it anew, ends it the same
 * way, and so on to the end of the file. hydra `_instantiate2.py`, 10,974 to 11,110 characters (94 replaced by 230
 * in a function's body): 8,169 characters lexed with the exact span, 494 with the line's end. A cold pass of the
 * corpus's reparses lexed 112,465 characters, 64,817 with this span (bench/README.md, lps28). Not every such edit:
 * whole lines inserted after a block's last line still reparse what follows. The tree is the same: the extra
 * characters are the same in both texts.
 */
export function reparseEdit(before: string, after: string): Parser.Edit {
  return textEdit(before, after, true);
}

/** `text` parsed (from `old` when given), or undefined when a text over {@link BUDGETED_CHARS} took over `budgetOps` operations. */
function parseWithin(parser: Parser, text: string, old: Parser.Tree | undefined, budgetOps: number): Parser.Tree | undefined {
  if (text.length <= BUDGETED_CHARS) return parser.parse(text, old);
  return parser.parse(text, old, { progressCallback: parseBudget(budgetOps) }) ?? undefined;
}

/**
 * A {@link ScopeResolver} over tree-sitter-python. Lines are 1-based and
 * inclusive; non-`.py` files yield undefined. Parse trees are cached (LRU,
 * bounded by count and by estimated bytes); files over `maxParseChars` are
 * not parsed: their scopes come from indentation.
 */
export function createPythonScopeResolver(options: ScopeResolverOptions = {}): ScopeResolver & { cacheStats(): CacheStats; indexStats(): CacheStats } {
  let parser: Parser | undefined; // made by the first .py file parsed
  const maxChars = options.maxParseChars ?? MAX_SCOPE_PARSE_CHARS;
  const budgetOps = options.parseBudgetOps ?? SCOPE_PARSE_BUDGET_OPS;
  const errorChars = options.errorTextChars ?? ERROR_TEXT_CHARS;
  const incremental = options.incremental ?? true;
  const plainFirst = options.plainFromIndentation ?? true;
  const indexes = new LRUCache<string, IndentIndex>({ max: INDEXED_TEXTS, maxSize: INDEX_CACHE_BYTES, sizeCalculation: indexBytes });
  /**
   * Per file path, the cache key of its latest tree: the old tree its next text is reparsed from (any session's;
   * from an unrelated text of the same path a reparse costs no more than a fresh parse). As many as trees kept.
   */
  const latest = new LRUCache<string, string>({ max: options.cacheSize ?? 256 });
  const cache = new LRUCache<string, TreeEntry>({
    max: options.cacheSize ?? 256,
    maxSize: options.cacheBytes ?? 64 * 1024 * 1024,
    sizeCalculation: (entry) => entry.bytes,
  });
  /** Each run's spans, made at its first (ports.ts: `scopeAt`'s `run`); lookups without a run share {@link shared}. */
  const spansOf = new WeakMap<object, IndentSpans>();
  const shared: IndentSpans = new Map();
  return {
    scopeAt: (file, text, range, run) => resolve(run, file, text, range),
    cacheStats: () => ({ entries: cache.size, bytes: cache.calculatedSize }),
    indexStats: () => ({ entries: indexes.size, bytes: indexes.calculatedSize }),
  };

  /**
   * The scope of `range` in `text`. The run's spans (the paths it answers from indentation for a while) are looked at
   * before the tree cache, so a run's answers never depend on which texts other runs had parsed.
   */
  function resolve(run: object | undefined, file: string, text: string, range: [number, number]): string | undefined {
    if (!/\.pyi?$/i.test(file)) return undefined;
    const lo = Math.max(0, Math.min(range[0], range[1]) - 1);
    const hi = Math.max(lo, Math.max(range[0], range[1]) - 1);
    if (text.length > maxChars) return indentScope(text, lo, hi, indexOf(file, text));
    const spans = run === undefined ? shared : spansOf.get(run);
    const indented = spans?.get(file);
    if (indented !== undefined && indented.left-- > 0) return indentScope(text, lo, hi, indexOf(file, text));
    // A path the run reads from indentation for a while, or counts strikes of, keeps asking the tree as before.
    if (plainFirst && indented === undefined) {
      const plain = plainIndentScope(indexOf(file, text), lo, hi);
      if (plain !== undefined) return plain;
    }
    // A sampled key, not a digest: an entry answers only for a text equal to its own (a rare collision reparses).
    const key = `${file}\0${sampledTextKey(text)}`;
    const hit = cache.get(key);
    let tree: Parser.Tree | undefined;
    let broken = true; // a halted parse counts as one with errors
    if (hit?.text === text) {
      hit.hits++;
      tree = hit.tree;
      broken = hit.broken;
    } else {
      parser ??= newParser('python'); // outside the try: a grammar that fails to load is an error, not "no scope"
      try {
        tree = parseWithin(parser, text, incremental ? previousTree(parser, file, text) : undefined, budgetOps);
      } catch {
        return undefined;
      }
      if (!tree)
        parser.reset(); // a halted parse would otherwise resume on the next text
      else {
        const root = tree.rootNode;
        const hasError = root.hasError;
        broken = text.length > errorChars && hasError;
        cache.set(key, { tree, text, hits: 0, bytes: root.descendantCount * BYTES_PER_NODE + 2 * text.length, broken, clean: !hasError });
        if (incremental) latest.set(file, key);
      }
    }
    if (broken) {
      const strikes = tree === undefined ? STRIKES : (indented?.strikes ?? 0) + 1;
      const span = strikes < STRIKES ? 0 : !indented?.span ? INDENT_LOOKUPS : Math.min(2 * indented.span, MAX_INDENT_LOOKUPS);
      let paths = spans;
      if (paths === undefined) {
        paths = new Map<string, IndentSpan>();
        spansOf.set(run!, paths);
      }
      if (indented === undefined && paths.size >= MAX_INDENT_PATHS) paths.delete(paths.keys().next().value!);
      paths.set(file, { left: span, span, strikes });
    } else if (indented !== undefined) spans?.delete(file);
    return tree === undefined ? indentScope(text, lo, hi, indexOf(file, text)) : scopeOf(tree, lo, hi);
  }

  /** The indentation index of `file`'s `text`, built once per text version (a sampled key: texts are compared). */
  function indexOf(file: string, text: string): IndentIndex {
    const key = `${file}\0${sampledTextKey(text)}`;
    const kept = indexes.get(key);
    if (kept?.text === text) return kept;
    const ix = indexPython(text);
    indexes.set(key, ix);
    return ix;
  }

  /**
   * A tree of `file`'s latest text, edited to the new text's shape, to reparse the new text from. `edit` changes a
   * tree in place, so a kept tree is copied first (a reparse of its own text from it; node tree-sitter has no
   * `Tree.copy`) and the copy edited. A tree with no syntax error is kept: its copy costs ~4 % of a fresh parse (a
   * 22 KB file: 0.16 of 3.8 ms), and another session at the same text (the rollouts of one task) finds it, where
   * taking it made a view and its extension take each other's trees in every session (dask-8685 seq 2 and 5: two
   * parses each time; bench/README.md, scope22). It shares its unchanged subtrees with the new tree: ~40 KB of RSS
   * beside the new tree's ~550 KB for a 22 KB file (the byte bound counts each tree whole: conservative). A tree
   * with errors copies at about half a fresh parse (error recovery reuses little), so it is kept only when its text
   * was looked up again since it was parsed (a view, then an edit's scope on the same text), as before; else it is
   * taken out of the cache. Undefined when there is none, or it was evicted. A tree of another session's version of
   * the path is used too: the reparse costs about what a fresh one does.
   */
  function previousTree(parser: Parser, file: string, text: string): Parser.Tree | undefined {
    const key = latest.get(file);
    const entry = key === undefined ? undefined : cache.peek(key);
    if (entry === undefined) return undefined;
    const edit = reparseEdit(entry.text, text);
    let old = entry.tree;
    if (entry.hits > 0 || entry.clean) old = parser.parse(entry.text, entry.tree);
    else cache.delete(key!);
    old.edit(edit);
    return old;
  }
}
