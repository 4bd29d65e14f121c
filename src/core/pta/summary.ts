/** Human- and machine-readable summaries of a PTA (`build-pta` output, `GET /v1/tasks`). */
import type { Pta } from '../scorer-api.js';
import type { ActionKind, Stage } from '../types.js';
import { nodeDepths, ptaPaths } from './paths.js';

/** One path of a PTA summary. */
export interface PtaPathSummary {
  nodes: number[];
  length: number;
  /** One stage letter per node, e.g. `EEIV`. */
  stages: string;
}

/** One (non-root) node of a PTA summary. */
export interface PtaNodeSummary {
  id: number;
  /** Parent node id (0 = the root). */
  parent: number;
  depth: number;
  stage: Stage;
  refs: number;
  kind: ActionKind;
  file?: string;
}

/** Counts and per-path / per-node facts of a PTA. */
export interface PtaSummary {
  task: string;
  version: number;
  /** Number of reference trajectories k. */
  references: number;
  /** Number of nodes, root excluded. */
  nodes: number;
  /** Number of root-to-terminal paths (see `ptaPaths`). */
  paths: number;
  pathDetails: PtaPathSummary[];
  /** Non-root nodes in depth-first order (children in creation order). */
  nodeDetails: PtaNodeSummary[];
}

/** Summarises a PTA. */
export function summarisePta(pta: Pta): PtaSummary {
  const depth = nodeDepths(pta);
  const stageOf = (id: number): string => pta.nodes[id]?.state?.stage ?? '?';
  const pathDetails = ptaPaths(pta).map((p) => ({ nodes: p, length: p.length, stages: p.map(stageOf).join('') }));
  const nodeDetails: PtaNodeSummary[] = [];
  const stack = [...(pta.nodes[0]?.children ?? [])].reverse();
  while (stack.length > 0) {
    const n = pta.nodes[stack.pop()!];
    if (n === undefined || n.state === null) continue;
    for (let i = n.children.length - 1; i >= 0; i--) stack.push(n.children[i]!);
    const d: PtaNodeSummary = { id: n.id, parent: n.parent ?? 0, depth: depth[n.id] ?? 0, stage: n.state.stage, refs: n.refs, kind: n.state.kind };
    if (n.state.file !== undefined) d.file = n.state.file;
    nodeDetails.push(d);
  }
  return {
    task: pta.task,
    version: pta.version,
    references: pta.references.length,
    nodes: nodeDetails.length,
    paths: pathDetails.length,
    pathDetails,
    nodeDetails,
  };
}

/**
 * A readable text rendering: a header, the paths' stage strings, and the node
 * tree. A chain of single children stays in one column; only a branch point
 * indents, with `├`/`└` marking where each branch starts.
 */
export function formatPtaSummary(summary: PtaSummary): string {
  const lines = [`PTA ${summary.task} v${summary.version}: ${summary.references} references, ${summary.nodes} nodes, ${summary.paths} paths`];
  summary.pathDetails.forEach((p, i) => lines.push(`  path ${i + 1} (${p.length}): ${p.stages}`));
  lines.push('  tree:');
  const children = new Map<number, PtaNodeSummary[]>();
  for (const n of summary.nodeDetails) children.set(n.parent, [...(children.get(n.parent) ?? []), n]);
  const walk = (parent: number, cont: string): void => {
    const kids = children.get(parent) ?? [];
    kids.forEach((n, i) => {
      const last = i === kids.length - 1;
      const head = kids.length > 1 ? `${cont}${last ? '└ ' : '├ '}` : cont;
      const file = n.file === undefined ? '' : ` ${n.file}`;
      lines.push(`    ${head}#${n.id} ${n.stage} ${n.kind}${file} (refs ${n.refs})`);
      walk(n.id, kids.length > 1 ? `${cont}${last ? '  ' : '│ '}` : cont);
    });
  };
  walk(0, '');
  return `${lines.join('\n')}\n`;
}
