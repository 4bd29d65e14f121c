/**
 * A PTA drawn as a tree, left to right: one column per depth, a chain of
 * single children stays on one row, a branch opens a new row. Nodes are
 * stage-coloured with their letter; terminal nodes (a reference ended there)
 * have a second ring; `×k` marks reference counts where they change; a file
 * name marks where the files touched change. With an alignment, the matched
 * nodes stand out, the best reference path is drawn thick, and the steps
 * that matched nothing are listed beside. Arrow keys walk the tree.
 */
import { OKABE_ITO, STAGE_NAMES, stageColor, textOn } from '../colors.js';
import { h, s } from '../dom.js';
import type { AlignmentBody, PtaJson, ViewStep } from '../types.js';
import { stageChip } from './chips.js';

const DX = 32;
/**
 * Row pitch and top margin: a file label rises at -30° from above its node, up to LABEL_CHARS characters
 * (~60 px up at 10 px type), and must clear the circles, rings and ×k of the row above (test/web/browser.test.ts
 * measures it).
 */
const DY = 96;
const R = 10;
const LEFT = 24;
const TOP = 80;
const LABEL_CHARS = 14;

type Node = PtaJson['nodes'][number];

interface Placed {
  node: Node;
  depth: number;
  row: number;
  terminal: boolean;
}

/** Depth and row of every node (rows: leaves in depth-first order; an inner node sits on its first child's row). */
function layout(pta: PtaJson): Map<number, Placed> {
  const placed = new Map<number, Placed>();
  const byId = new Map(pta.nodes.map((n) => [n.id, n]));
  let rows = 0;
  // Iterative post-order so deep chains cannot overflow the stack.
  const stack: Array<{ id: number; depth: number; i: number }> = [{ id: 0, depth: 0, i: 0 }];
  while (stack.length > 0) {
    const top = stack[stack.length - 1] as { id: number; depth: number; i: number };
    const node = byId.get(top.id);
    if (!node) {
      stack.pop();
      continue;
    }
    if (top.i < node.children.length) {
      stack.push({ id: node.children[top.i++]!, depth: top.depth + 1, i: 0 });
      continue;
    }
    stack.pop();
    const first = node.children.length > 0 ? placed.get(node.children[0]!) : undefined;
    const childRefs = node.children.reduce((a, c) => a + (byId.get(c)?.refs ?? 0), 0);
    placed.set(node.id, {
      node,
      depth: top.depth,
      row: first ? first.row : rows++,
      terminal: node.id !== 0 && (node.children.length === 0 || node.refs > childRefs),
    });
  }
  return placed;
}

/** A file's last segment, at most LABEL_CHARS characters (the full path is in the node's tooltip). */
function basename(f: string): string {
  const b = f.split('/').pop() ?? f;
  return b.length > LABEL_CHARS ? `${b.slice(0, LABEL_CHARS - 1)}…` : b;
}

export interface PtaTreeOptions {
  alignment?: AlignmentBody | undefined;
  /** The aligned trajectory's steps (for the list of unmatched steps). */
  steps?: readonly ViewStep[] | undefined;
}

export function ptaTree(pta: PtaJson, opts: PtaTreeOptions = {}): HTMLElement {
  const placed = layout(pta);
  const matched = new Set(opts.alignment?.matchedNodes ?? []);
  const stepsOf = new Map<number, number[]>();
  for (const a of opts.alignment?.steps ?? []) if (a.node !== null) stepsOf.set(a.node, [...(stepsOf.get(a.node) ?? []), a.t]);
  const best = new Set(opts.alignment?.bestPath?.nodes ?? []);
  const overlay = opts.alignment !== undefined;
  let maxDepth = 0,
    maxRow = 0;
  for (const p of placed.values()) {
    maxDepth = Math.max(maxDepth, p.depth);
    maxRow = Math.max(maxRow, p.row);
  }
  const W = LEFT * 2 + maxDepth * DX + 120,
    H = TOP + maxRow * DY + 40;
  const x = (p: Placed): number => LEFT + p.depth * DX;
  const y = (p: Placed): number => TOP + p.row * DY;

  const edges = s('g', { fill: 'none' });
  const glyphs = s('g', {});
  const labels = s('g', { 'font-size': '10', fill: '#1a1a1a' });
  const nodeEls = new Map<number, SVGGElement>();
  for (const p of placed.values()) {
    const parent = p.node.parent === null ? undefined : placed.get(p.node.parent);
    const k = pta.references.length || 1;
    if (parent) {
      const onBest = overlay && best.has(p.node.id) && (parent.node.id === 0 || best.has(parent.node.id));
      const xm = x(parent) + DX / 2;
      const d = parent.row === p.row ? `M${x(parent)},${y(parent)} H${x(p)}` : `M${x(parent)},${y(parent)} H${xm} V${y(p)} H${x(p)}`;
      edges.append(
        s('path', {
          d,
          stroke: onBest ? OKABE_ITO.blue : '#8a8a8a',
          'stroke-width': onBest ? 4 : 1 + (2 * p.node.refs) / k,
          'stroke-opacity': overlay && !onBest ? 0.5 : 1,
        }),
      );
      if (p.node.refs !== parent.node.refs || parent.node.id === 0) {
        labels.append(s('text', { class: 'pta-refs', x: x(p), y: y(p) + R + 12, 'text-anchor': 'middle' }, `×${p.node.refs}`));
      }
      const file = p.node.state?.file;
      if (file !== undefined && file !== parent.node.state?.file) {
        // From above the terminal ring (R + 4), rising to the right.
        const [lx, ly] = [x(p) + 4, y(p) - R - 7];
        labels.append(s('text', { class: 'pta-file', x: lx, y: ly, transform: `rotate(-30 ${lx} ${ly})` }, basename(file)));
      }
    }
    const g = s('g', { class: 'pta-node', 'data-node': p.node.id, tabindex: '-1' });
    if (p.node.id === 0) {
      g.append(s('circle', { cx: x(p), cy: y(p), r: 5, fill: '#1a1a1a' }), s('title', {}, 'start (root)'));
    } else {
      const st = p.node.state;
      const stage = st?.stage ?? '?';
      const on = !overlay || matched.has(p.node.id);
      const bg = stageColor(stage);
      if (p.terminal) g.append(s('circle', { cx: x(p), cy: y(p), r: R + 4, fill: 'none', stroke: '#1a1a1a', 'stroke-width': 1.5 }));
      g.append(
        s('circle', { cx: x(p), cy: y(p), r: R, fill: bg, 'fill-opacity': on ? 1 : 0.3, stroke: overlay && on ? '#000000' : '#ffffff', 'stroke-width': overlay && on ? 3 : 1 }),
        s('text', { x: x(p), y: y(p) + 4, 'text-anchor': 'middle', 'font-size': '11', 'font-weight': 'bold', fill: textOn(bg), 'fill-opacity': on ? 1 : 0.5 }, stage),
        s(
          'title',
          {},
          `#${p.node.id} · ${stage} ${st?.kind ?? ''}${st?.file ? ` · ${st.file}` : ''} · refs ${p.node.refs}${p.terminal ? ' · terminal' : ''}${overlay ? (matched.has(p.node.id) ? ` · matched by step ${stepsOf.get(p.node.id)?.join(', ')}` : ' · not matched') : ''}`,
        ),
      );
    }
    nodeEls.set(p.node.id, g);
    glyphs.append(g);
  }
  const focusRing = s('circle', { r: R + 7, fill: 'none', stroke: OKABE_ITO.vermillion, 'stroke-width': 2.5, 'stroke-dasharray': '4 3', visibility: 'hidden' });
  const svg = s(
    'svg',
    {
      width: W,
      height: H,
      viewBox: `0 0 ${W} ${H}`,
      'font-family': 'sans-serif',
      role: 'img',
      'aria-label': `PTA of ${pta.task}, version ${pta.version}: ${pta.nodes.length - 1} nodes over ${pta.references.length} references. Use the arrow keys to walk it.`,
    },
    edges,
    labels,
    glyphs,
    focusRing,
  );

  const detail = h('div', { class: 'card detail', 'aria-live': 'polite' }, h('p', { class: 'muted' }, 'Pick a node (click, or focus the tree and use the arrow keys) to see it.'));
  let current = pta.nodes[0]?.children[0] ?? 0;
  const select = (id: number, scroll = true): void => {
    const p = placed.get(id);
    if (!p) return;
    current = id;
    focusRing.setAttribute('cx', String(x(p)));
    focusRing.setAttribute('cy', String(y(p)));
    focusRing.setAttribute('visibility', 'visible');
    if (scroll) nodeEls.get(id)?.scrollIntoView?.({ block: 'nearest', inline: 'nearest' });
    const st = p.node.state;
    const ts = stepsOf.get(id);
    detail.replaceChildren(
      h(
        'div',
        {},
        h(
          'p',
          {},
          h('strong', {}, id === 0 ? 'Start (root)' : `Node #${id}`),
          st ? [' ', stageChip(st.stage), ` ${STAGE_NAMES[st.stage] ?? ''} · ${st.kind} · tool `] : '',
          st ? h('code', {}, st.tool) : '',
        ),
        h(
          'p',
          {},
          `depth ${p.depth} · ${p.node.refs} of ${pta.references.length} references pass here`,
          p.terminal ? ' · terminal (a reference ended here)' : '',
          p.node.children.length > 1 ? ` · branches into ${p.node.children.length}` : '',
        ),
        st?.file ? h('p', {}, 'file ', h('code', {}, st.file), st.range ? ` lines ${st.range[0]}-${st.range[1]}` : '', st.scope ? [' · scope ', h('code', {}, st.scope)] : '') : null,
        overlay && id !== 0 ? h('p', {}, ts ? `matched by step ${ts.join(', ')}` : 'no step of this trajectory matched it') : null,
      ),
    );
  };
  svg.addEventListener('click', (e) => {
    const g = (e.target as Element).closest('.pta-node');
    if (g) select(Number(g.getAttribute('data-node')), false);
  });
  const wrap = h('div', { class: 'pta-wrap', tabindex: '0', role: 'group', 'aria-label': 'PTA tree (arrow keys: right child, left parent, up and down siblings)' }, svg);
  wrap.addEventListener('keydown', (e) => {
    const p = placed.get(current);
    if (!p) return;
    const parent = p.node.parent === null ? undefined : placed.get(p.node.parent);
    const sibs = parent?.node.children ?? [];
    const i = sibs.indexOf(current);
    const next: Record<string, number | undefined> = {
      ArrowRight: p.node.children[0],
      ArrowLeft: p.node.parent ?? undefined,
      ArrowDown: sibs[i + 1],
      ArrowUp: i > 0 ? sibs[i - 1] : undefined,
    };
    if (!(e.key in next)) return;
    e.preventDefault();
    const to = next[e.key];
    if (to !== undefined) select(to);
  });
  wrap.addEventListener('focus', () => select(current));

  const legend = h(
    'p',
    { class: 'legend' },
    'Circles are PTA nodes coloured by stage (letter inside); a second ring marks a terminal node; ×k is how many references pass there (edge width too); names are the files touched where they change.',
    overlay ? ' Bold-ringed nodes were matched by a step of the trajectory, faded ones were not; the thick blue path is the reference path it follows best.' : '',
  );

  const unmatched = overlay ? unmatchedList(opts) : null;
  return h('div', { class: 'pta' }, legend, h('div', { class: overlay ? 'pta-grid' : '' }, h('div', {}, wrap, detail), unmatched));
}

function unmatchedList(opts: PtaTreeOptions): HTMLElement {
  const a = opts.alignment!;
  const stepOf = new Map((opts.steps ?? []).map((s) => [s.t, s]));
  const misses = a.steps.filter((x) => x.node === null && stepOf.get(x.t)?.stage !== 'O');
  const orch = a.steps.filter((x) => stepOf.get(x.t)?.stage === 'O').length;
  const hits = a.bestPath?.hits.length ?? 0;
  const len = a.bestPath?.nodes.length ?? 0;
  return h(
    'aside',
    { class: 'card unmatched', 'aria-labelledby': 'unmatched-title' },
    h('h3', { id: 'unmatched-title' }, `Steps with no matching node (${misses.length})`),
    h('p', { class: 'muted' }, `${a.matchedNodes.length} nodes matched; best reference path: ${hits} of its ${len} nodes hit in order; ${orch} orchestration steps are never aligned.`),
    h(
      'ol',
      { class: 'miss-list' },
      ...misses.map((m) => {
        const st = stepOf.get(m.t);
        return h('li', {}, h('span', { class: 'mono' }, `t${m.t} `), st ? stageChip(st.stage) : '', ' ', h('code', { title: st?.text ?? '' }, st ? `${st.tool}: ${st.text}` : ''));
      }),
    ),
  );
}
