import Parser from 'tree-sitter';
import Python from 'tree-sitter-python';
import { LRUCache } from 'lru-cache';
import { createHash } from 'node:crypto';
import type { ScopeResolver } from '../core/ports.js';

type SyntaxNode = Parser.SyntaxNode;

/** Options of {@link createPythonScopeResolver}. */
export interface ScopeResolverOptions {
  /** Parse trees kept per (file, text hash) (default 256). */
  cacheSize?: number;
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
 * inclusive; non-`.py` files yield undefined. Parse trees are cached.
 */
export function createPythonScopeResolver(options: ScopeResolverOptions = {}): ScopeResolver {
  const parser = new Parser();
  parser.setLanguage(Python as unknown as Parser.Language);
  const cache = new LRUCache<string, Parser.Tree>({ max: options.cacheSize ?? 256 });
  return {
    scopeAt(file: string, text: string, range: [number, number]): string | undefined {
      if (!/\.pyi?$/i.test(file)) return undefined;
      const key = `${file}\0${createHash('md5').update(text).digest('hex')}`;
      let tree = cache.get(key);
      if (!tree) {
        try {
          tree = parser.parse(text);
        } catch {
          return undefined;
        }
        cache.set(key, tree);
      }
      const lo = Math.max(0, Math.min(range[0], range[1]) - 1);
      const hi = Math.max(lo, Math.max(range[0], range[1]) - 1);
      return scopeOf(tree.rootNode, lo, hi);
    },
  };
}
