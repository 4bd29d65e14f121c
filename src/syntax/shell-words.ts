import type Parser from 'tree-sitter';

type SyntaxNode = Parser.SyntaxNode;

/** Removes backslash escapes from an unquoted shell word (`\;` -> `;`). */
function unescapeBare(text: string): string {
  return text.replace(/\\(.)/gs, '$1');
}

/** Removes the escapes bash honours inside double quotes. */
function unescapeDouble(text: string): string {
  return text.replace(/\\([\\"$`])/g, '$1');
}

/**
 * The literal value of a shell word node: quotes stripped, content kept,
 * expansions left as written (`$HOME` stays `$HOME`).
 */
export function wordValue(node: SyntaxNode): string {
  const text = node.text;
  switch (node.type) {
    case 'raw_string':
      return text.length >= 2 ? text.slice(1, -1) : text;
    case 'string':
      return unescapeDouble(text.length >= 2 && text.startsWith('"') ? text.slice(1, -1) : text);
    case 'ansi_c_string':
      return text.length >= 3 ? text.slice(2, -1) : text;
    case 'translated_string':
      return text.length >= 3 ? unescapeDouble(text.slice(2, -1)) : text;
    case 'word':
      return unescapeBare(text);
    case 'concatenation':
      return node.children.map(wordValue).join('');
    default:
      return text;
  }
}
