import type Parser from 'tree-sitter';
import { LRUCache } from 'lru-cache';
import { createHash } from 'node:crypto';
import type { ScopeResolver } from '../core/ports.js';
import { newParser } from './grammars.js';
import { indentScope } from './python-indent-scope.js';

type SyntaxNode = Parser.SyntaxNode;

/** Options of {@link createPythonScopeResolver}. */
export interface ScopeResolverOptions {
  /** Parse trees kept per (file, text hash) (default 256). */
  cacheSize?: number;
  /** Bytes the kept parse trees may hold, estimated from their node counts (default 64 MiB). */
  cacheBytes?: number;
  /** Characters of a file tree-sitter parses (default {@link MAX_SCOPE_PARSE_CHARS}); a longer file's scopes come from indentation. */
  maxParseChars?: number;
}

/**
 * Largest file text sent to tree-sitter-python. A parse of an 850 KB file took 1.4 s of the event loop and
 * its tree ~138 MB; a larger file's scopes are read from its indentation ({@link indentScope}), in linear
 * time and with nothing kept.
 */
export const MAX_SCOPE_PARSE_CHARS = 128 * 1024;
/** Approximate bytes of a parse tree per syntax node (measured: ~4 MB for 34k nodes), plus its source text. */
const BYTES_PER_NODE = 128;

/** What a bounded cache holds (tests, metrics). */
export interface CacheStats {
  entries: number;
  bytes: number;
}

const SCOPES = new Set(['function_definition', 'class_definition']);

/** Innermost class/function containing 0-based rows [start, end], as a dotted name. */
function scopeOf(root: SyntaxNode, start: number, end: number): string {
  const names: string[] = [];
  let node: SyntaxNode = root;
  for (;;) {
    let next: SyntaxNode | undefined;
    for (const child of node.namedChildren) {
      if (child.startPosition.row <= start && child.endPosition.row >= end) {
        next = child;
        break;
      }
    }
    if (!next) break;
    if (SCOPES.has(next.type)) {
      const name = next.childForFieldName('name')?.text;
      if (name) names.push(name);
    }
    node = next;
  }
  return names.length > 0 ? names.join('.') : '<module>';
}

/**
 * A {@link ScopeResolver} over tree-sitter-python. Lines are 1-based and
 * inclusive; non-`.py` files yield undefined. Parse trees are cached (LRU,
 * bounded by count and by estimated bytes); files over `maxParseChars` are
 * not parsed: their scopes come from indentation.
 */
export function createPythonScopeResolver(options: ScopeResolverOptions = {}): ScopeResolver & { cacheStats(): CacheStats } {
  let parser: Parser | undefined; // made by the first .py file parsed
  const maxChars = options.maxParseChars ?? MAX_SCOPE_PARSE_CHARS;
  const cache = new LRUCache<string, { tree: Parser.Tree; bytes: number }>({
    max: options.cacheSize ?? 256,
    maxSize: options.cacheBytes ?? 64 * 1024 * 1024,
    sizeCalculation: (entry) => entry.bytes,
  });
  return {
    scopeAt(file: string, text: string, range: [number, number]): string | undefined {
      if (!/\.pyi?$/i.test(file)) return undefined;
      const lo = Math.max(0, Math.min(range[0], range[1]) - 1);
      const hi = Math.max(lo, Math.max(range[0], range[1]) - 1);
      if (text.length > maxChars) return indentScope(text, lo, hi);
      const key = `${file}\0${createHash('md5').update(text).digest('hex')}`;
      let tree = cache.get(key)?.tree;
      if (!tree) {
        parser ??= newParser('python'); // outside the try: a grammar that fails to load is an error, not "no scope"
        try {
          tree = parser.parse(text);
        } catch {
          return undefined;
        }
        cache.set(key, { tree, bytes: tree.rootNode.descendantCount * BYTES_PER_NODE + 2 * text.length });
      }
      return scopeOf(tree.rootNode, lo, hi);
    },
    cacheStats: () => ({ entries: cache.size, bytes: cache.calculatedSize }),
  };
}
