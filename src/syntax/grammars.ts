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

/**
 * A tree-sitter parser for one grammar (tree-sitter and the grammar are loaded by the first call).
 * The grammar is given without its `nodeTypeInfo` (node-types.json): from it tree-sitter makes a class per node
 * type with `new Function` and a getter per field (`nameNode`, ...), most of the time it takes to set a language
 * (a few ms of a short command's run), and src/syntax reads nodes through the generic `SyntaxNode` API
 * (`type`, `children`, `childForFieldName`) only.
 */
export function newParser(grammar: keyof typeof GRAMMARS): Parser {
  const TreeSitter = load('tree-sitter') as typeof Parser;
  const { nodeTypeInfo: _typed, ...language } = load(GRAMMARS[grammar]) as Language & { nodeTypeInfo?: unknown };
  const parser = new TreeSitter();
  parser.setLanguage(language as Language);
  return parser;
}
