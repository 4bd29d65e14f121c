/**
 * tree-sitter and its grammars, loaded on first use. Each is a native addon (a dlopen, and a node-types.json
 * read and turned into node classes), and most runs of the CLI (`--version`, `convert`, `show-pta`, a run
 * without Python files) never parse one of them. They are CommonJS and loaded with `require`, so no `import`
 * pulls them in early and the CLI bundle keeps them outside (they load from node_modules).
 */
import { createRequire } from 'node:module';
import type Parser from 'tree-sitter';

const load = createRequire(import.meta.url);

type Language = Parameters<Parser['setLanguage']>[0];

const GRAMMARS = { bash: 'tree-sitter-bash', python: 'tree-sitter-python' } as const;

/** A tree-sitter parser for one grammar (tree-sitter and the grammar are loaded by the first call). */
export function newParser(grammar: keyof typeof GRAMMARS): Parser {
  const TreeSitter = load('tree-sitter') as typeof Parser;
  const parser = new TreeSitter();
  parser.setLanguage(load(GRAMMARS[grammar]) as Language);
  return parser;
}
