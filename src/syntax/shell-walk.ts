import type Parser from 'tree-sitter';
import { wordValue } from './shell-words.js';

type SyntaxNode = Parser.SyntaxNode;

/** A simple command as written, before wrappers are peeled off. */
export interface RawCommand {
  words: string[];
  writes: string[];
  heredoc: boolean;
  pipelineIndex: number;
}

const DESCEND = new Set([
  'program', 'list', 'subshell', 'compound_statement', 'if_statement', 'elif_clause', 'else_clause',
  'while_statement', 'for_statement', 'c_style_for_statement', 'do_group', 'case_statement', 'case_item',
  'negated_command', 'function_definition', 'ERROR',
]);

/** Output redirection target of a `file_redirect`, or undefined for fd duplication, input and devices. */
function redirectTarget(node: SyntaxNode): string | undefined {
  let op = '';
  let dest: SyntaxNode | undefined;
  for (const c of node.children) {
    if (!c.isNamed) op = c.type;
    else if (c.type !== 'file_descriptor') dest = c;
  }
  if (!dest || !/^(>|>>|&>|&>>|>\||>&)$/.test(op)) return undefined;
  const target = wordValue(dest);
  if (op === '>&' && /^(\d+|-)$/.test(target)) return undefined;
  if (target === '' || target.startsWith('/dev/')) return undefined;
  return target;
}

/** Applies the redirects of a `redirected_statement` or `heredoc_redirect` to a command. */
function applyRedirects(nodes: SyntaxNode[], target: RawCommand): void {
  for (const c of nodes) {
    if (c.type === 'file_redirect') {
      const t = redirectTarget(c);
      if (t !== undefined) target.writes.push(t);
    } else if (c.type === 'heredoc_redirect') {
      target.heredoc = true;
      applyRedirects(c.namedChildren, target);
    } else if (c.type === 'herestring_redirect') {
      target.heredoc = true;
    }
  }
}

function commandOf(node: SyntaxNode, pipelineIndex: number): RawCommand {
  const cmd: RawCommand = { words: [], writes: [], heredoc: false, pipelineIndex };
  for (const c of node.children) {
    if (!c.isNamed) {
      if (c.text.trim() !== '') cmd.words.push(c.text);
    } else if (c.type === 'variable_assignment') cmd.words.push(c.text);
    else if (c.type === 'command_name') cmd.words.push(wordValue(c.firstNamedChild ?? c));
    else if (c.type === 'file_redirect' || c.type === 'heredoc_redirect' || c.type === 'herestring_redirect') {
      applyRedirects([c], cmd);
    } else cmd.words.push(wordValue(c));
  }
  return cmd;
}

/** Collects every simple command under `node` in source order into `out`. */
export function collectCommands(node: SyntaxNode, pipelineIndex: number, out: RawCommand[]): void {
  switch (node.type) {
    case 'command':
      out.push(commandOf(node, pipelineIndex));
      return;
    case 'declaration_command':
      out.push({ words: node.children.map((c) => c.text), writes: [], heredoc: false, pipelineIndex });
      return;
    case 'pipeline': {
      let stage = 0;
      for (const c of node.children) {
        if (c.isNamed) collectCommands(c, pipelineIndex + stage, out);
        else if (c.type === '|' || c.type === '|&') stage++;
      }
      return;
    }
    case 'redirected_statement': {
      const before = out.length;
      const body = node.childForFieldName('body');
      if (body) collectCommands(body, pipelineIndex, out);
      let last = out.length > before ? out[out.length - 1] : undefined;
      if (!last) {
        last = { words: [], writes: [], heredoc: false, pipelineIndex };
        out.push(last);
      }
      const redirects = node.namedChildren.filter((c) => c !== body);
      const first = redirects[0];
      if (body && first && first.startIndex > body.endIndex) {
        const gap = node.text.slice(body.endIndex - node.startIndex, first.startIndex - node.startIndex).trim();
        if (gap !== '') last.words.push(...gap.split(/\s+/));
      }
      applyRedirects(redirects, last);
      return;
    }
    default:
      if (DESCEND.has(node.type)) for (const c of node.namedChildren) collectCommands(c, pipelineIndex, out);
  }
}
