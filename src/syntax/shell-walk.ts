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
  'program',
  'list',
  'subshell',
  'compound_statement',
  'if_statement',
  'elif_clause',
  'else_clause',
  'while_statement',
  'for_statement',
  'c_style_for_statement',
  'do_group',
  'case_statement',
  'case_item',
  'negated_command',
  'function_definition',
  'ERROR',
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

/**
 * Nodes one walk may visit: past it the walk stops and reports itself incomplete (bounded work per
 * command: each node costs a few microseconds in the tree-sitter binding). The 14,383 real steps of the
 * calibration set need at most 100.
 */
export const MAX_WALK_NODES = 1_000;

type Task = { node: SyntaxNode; pipelineIndex: number; redirect?: undefined } | { node: SyntaxNode; pipelineIndex: number; redirect: { body: SyntaxNode | null; before: number } };

/** Finishes a `redirected_statement` once its body is walked: the redirects go to its last command. */
function finishRedirect(node: SyntaxNode, body: SyntaxNode | null, before: number, pipelineIndex: number, out: RawCommand[]): void {
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
}

/**
 * Collects every simple command under `node` in source order into `out`. The walk keeps its own
 * stack (nesting depth costs no call stack) and visits at most `maxNodes` nodes; returns false
 * when it stopped early, with the commands found so far in `out`.
 */
export function collectCommands(node: SyntaxNode, pipelineIndex: number, out: RawCommand[], maxNodes = MAX_WALK_NODES): boolean {
  const stack: Task[] = [{ node, pipelineIndex }];
  let visited = 0;
  for (let task = stack.pop(); task !== undefined; task = stack.pop()) {
    const { node: n, pipelineIndex: pi } = task;
    if (task.redirect) {
      finishRedirect(n, task.redirect.body, task.redirect.before, pi, out);
      continue;
    }
    if (++visited > maxNodes) return false;
    switch (n.type) {
      case 'command':
        out.push(commandOf(n, pi));
        break;
      case 'declaration_command':
      case 'unset_command':
        out.push({ words: n.children.map((c) => c.text), writes: [], heredoc: false, pipelineIndex: pi });
        break;
      case 'pipeline': {
        const stages: Task[] = [];
        let stage = 0;
        for (const c of n.children) {
          if (c.isNamed) stages.push({ node: c, pipelineIndex: pi + stage });
          else if (c.type === '|' || c.type === '|&') stage++;
        }
        for (let i = stages.length - 1; i >= 0; i--) stack.push(stages[i]!);
        break;
      }
      case 'redirected_statement': {
        const body = n.childForFieldName('body');
        stack.push({ node: n, pipelineIndex: pi, redirect: { body, before: out.length } });
        if (body) stack.push({ node: body, pipelineIndex: pi });
        break;
      }
      default:
        if (DESCEND.has(n.type)) {
          const children = n.namedChildren;
          for (let i = children.length - 1; i >= 0; i--) stack.push({ node: children[i]!, pipelineIndex: pi });
        }
    }
  }
  return true;
}
