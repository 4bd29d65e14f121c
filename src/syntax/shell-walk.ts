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

type Task = { node: SyntaxNode; pipelineIndex: number; redirect?: undefined } | { node: SyntaxNode; pipelineIndex: number; redirect: { body: SyntaxNode | null; before: number } };

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

/**
 * Output redirection target of a `file_redirect`, or undefined for fd duplication, input and devices. Inside a
 * heredoc's first line tree-sitter-bash 0.25 folds what follows the redirect into it after an ERROR node
 * (`<<EOF 2>&1 | tail -20`, `<<EOF > f; python f`): the destination is the word before the ERROR, never one after it.
 */
function redirectTarget(node: SyntaxNode): string | undefined {
  let op = '';
  let dest: SyntaxNode | undefined;
  for (const c of node.children) {
    if (c.type === 'ERROR') break;
    if (!c.isNamed) op = c.type;
    else if (c.type !== 'file_descriptor') dest ??= c;
  }
  if (!dest || !/^(>|>>|&>|&>>|>\||>&)$/.test(op)) return undefined;
  const target = wordValue(dest);
  if (op === '>&' && /^(\d+|-)$/.test(target)) return undefined;
  if (target === '' || target.startsWith('/dev/')) return undefined;
  return target;
}

/** Statements a walk reads: what tree-sitter-bash may nest in a `heredoc_redirect` (the rest of the heredoc's line). */
const STATEMENTS = new Set([...DESCEND, 'command', 'pipeline', 'redirected_statement', 'declaration_command', 'unset_command']);
STATEMENTS.delete('program');
STATEMENTS.delete('ERROR');

/**
 * The commands tree-sitter-bash 0.25 nests in a `heredoc_redirect`: the rest of the heredoc's first line
 * (`cat <<'PY' > f && python f`, `cat <<EOF | python3`), as tasks in source order. After `|` the next command is
 * the pipeline's next stage; after `&&`, `||` and `;` a new pipeline starts.
 */
function heredocRest(node: SyntaxNode, pipelineIndex: number, tasks: Task[]): void {
  for (const c of node.namedChildren) {
    if (!STATEMENTS.has(c.type)) continue;
    if (c.type === 'pipeline' && (c.firstChild?.type === '|' || c.firstChild?.type === '|&')) pipedRest(c, pipelineIndex, tasks);
    else tasks.push({ node: c, pipelineIndex });
  }
}

/** `| a | b`, continuing the heredoc command's pipeline; a list there (`| python3 && echo ok`) only continues it with its first command. */
function pipedRest(node: SyntaxNode, pipelineIndex: number, tasks: Task[]): void {
  let stage = 0;
  for (const c of node.children) {
    if (!c.isNamed) {
      if (c.type === '|' || c.type === '|&') stage++;
    } else if (c.type === 'list') {
      const [first, ...rest] = c.namedChildren;
      if (first) pipedStage(first, pipelineIndex + stage, pipelineIndex, tasks);
      for (const r of rest) tasks.push({ node: r, pipelineIndex });
    } else tasks.push({ node: c, pipelineIndex: pipelineIndex + stage });
  }
}

/** The first command of a list in a pipeline stage: `stage` for its leftmost statement, `base` for the others. */
function pipedStage(node: SyntaxNode, stage: number, base: number, tasks: Task[]): void {
  if (node.type !== 'list') {
    tasks.push({ node, pipelineIndex: stage });
    return;
  }
  const [first, ...rest] = node.namedChildren;
  if (first) pipedStage(first, stage, base, tasks);
  for (const r of rest) tasks.push({ node: r, pipelineIndex: base });
}

/**
 * Applies the redirects of a `redirected_statement` or `heredoc_redirect` to a command; the commands nested in a
 * heredoc redirect go to `rest` (see {@link heredocRest}).
 */
function applyRedirects(nodes: SyntaxNode[], target: RawCommand, rest: Task[]): void {
  for (const c of nodes) {
    if (c.type === 'file_redirect') {
      const t = redirectTarget(c);
      if (t !== undefined) target.writes.push(t);
    } else if (c.type === 'heredoc_redirect') {
      target.heredoc = true;
      applyRedirects(c.namedChildren, target, rest);
      heredocRest(c, target.pipelineIndex, rest);
    } else if (c.type === 'herestring_redirect') {
      target.heredoc = true;
    }
  }
}

/**
 * Children (words, redirects) of one simple command a walk reads. Each costs a few microseconds in the binding, and
 * `node.children` makes them all at once: 16 KiB of `a a a ...` (8,192 words, what the parser sees of a 900 KB
 * command) took 50-150 ms. Past the bound the command keeps its first words and the walk reports itself incomplete.
 * The 16,996 real steps of the corpus and calibration set have at most 35 children in a command.
 */
export const MAX_COMMAND_CHILDREN = 256;

/**
 * The node's (named) children, at most `max` of them: past it the first `max` through a cursor (O(1) a step; `children`
 * and `namedChildren` make every child object at once).
 */
function firstChildren(node: SyntaxNode, max: number, named: boolean): SyntaxNode[] {
  if ((named ? node.namedChildCount : node.childCount) <= max) return named ? node.namedChildren : node.children;
  const children: SyntaxNode[] = [];
  const cursor = node.walk();
  for (let more = cursor.gotoFirstChild(); more && children.length < max; more = cursor.gotoNextSibling()) {
    if (!named || cursor.nodeIsNamed) children.push(cursor.currentNode);
  }
  return children;
}

/** The node's children, or its first {@link MAX_COMMAND_CHILDREN} and false when it has more. */
function boundedChildren(node: SyntaxNode): { children: SyntaxNode[]; complete: boolean } {
  const children = firstChildren(node, MAX_COMMAND_CHILDREN, false);
  return { children, complete: children.length === node.childCount };
}

/** The command's words and redirects; `complete` is false when it had more children than a walk reads. */
function commandOf(node: SyntaxNode, pipelineIndex: number, rest: Task[]): RawCommand & { complete: boolean } {
  const { children, complete } = boundedChildren(node);
  const cmd: RawCommand & { complete: boolean } = { words: [], writes: [], heredoc: false, pipelineIndex, complete };
  for (const c of children) {
    if (!c.isNamed) {
      if (c.text.trim() !== '') cmd.words.push(c.text);
    } else if (c.type === 'variable_assignment') cmd.words.push(c.text);
    else if (c.type === 'command_name') cmd.words.push(wordValue(c.firstNamedChild ?? c));
    else if (c.type === 'file_redirect' || c.type === 'heredoc_redirect' || c.type === 'herestring_redirect') {
      applyRedirects([c], cmd, rest);
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

/** Finishes a `redirected_statement` once its body is walked: the redirects go to its last command. */
function finishRedirect(node: SyntaxNode, body: SyntaxNode | null, before: number, pipelineIndex: number, out: RawCommand[], rest: Task[]): void {
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
  applyRedirects(redirects, last, rest);
}

/**
 * Collects every simple command under `node` in source order into `out`. The walk keeps its own
 * stack (nesting depth costs no call stack), visits at most `maxNodes` nodes and reads at most
 * {@link MAX_COMMAND_CHILDREN} children of a command; returns false when it stopped early, with the
 * commands found so far in `out`.
 */
export function collectCommands(node: SyntaxNode, pipelineIndex: number, out: RawCommand[], maxNodes = MAX_WALK_NODES): boolean {
  const stack: Task[] = [{ node, pipelineIndex }];
  let visited = 0;
  for (let task = stack.pop(); task !== undefined; task = stack.pop()) {
    const { node: n, pipelineIndex: pi } = task;
    if (task.redirect) {
      const rest: Task[] = [];
      finishRedirect(n, task.redirect.body, task.redirect.before, pi, out, rest);
      for (let i = rest.length - 1; i >= 0; i--) stack.push(rest[i]!);
      continue;
    }
    if (++visited > maxNodes) return false;
    switch (n.type) {
      case 'command': {
        const rest: Task[] = [];
        const { complete, ...cmd } = commandOf(n, pi, rest);
        out.push(cmd);
        if (!complete) return false;
        for (let i = rest.length - 1; i >= 0; i--) stack.push(rest[i]!);
        break;
      }
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
          // The walk visits at most the first `maxNodes - visited + 1` of them (the last to find the budget spent): a
          // program of 5,000 lines made every child object (30-40 ms) for a walk that reads 1,000.
          const children = firstChildren(n, maxNodes - visited + 1, true);
          for (let i = children.length - 1; i >= 0; i--) stack.push({ node: children[i]!, pipelineIndex: pi });
        }
    }
  }
  return true;
}
