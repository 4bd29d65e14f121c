/** A tiny element builder: no framework, text always set as text (never parsed as HTML). */
import { escapeInvisible } from '../../src/printable.js';

type Child = Node | string | number | null | undefined | false | Child[];

/**
 * Characters a reader cannot see (bidi controls: Trojan Source, CVE-2021-42574; zero-width spaces and joiners, the
 * byte order mark, tag characters: Unicode's format characters): a tenant's task, agent or tool name holding one would
 * read backwards, or pass for another name. Shown as `\u202e`, `\u200b`, by the rule the CLI, the reports and the
 * server log use (src/printable.ts); other text is shown as it is (terminal escapes in an observation included).
 */
export const visible = escapeInvisible;

/** Attributes a person reads (a tooltip, a screen reader's label): shown as text is. */
const READ = new Set(['title', 'aria-label']);
type Attrs = Record<string, string | number | boolean | undefined | ((e: Event) => void)>;

/** `h('a', { href: '/' }, 'home')`: attributes (`on*` are listeners, `false`/undefined skipped), then children. */
export function h<K extends keyof HTMLElementTagNameMap>(tag: K, attrs: Attrs = {}, ...children: Child[]): HTMLElementTagNameMap[K] {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === undefined || v === false) continue;
    if (typeof v === 'function') el.addEventListener(k.slice(2), v);
    else if (k === 'class') el.className = String(v);
    else el.setAttribute(k, v === true ? '' : READ.has(k) ? visible(String(v)) : String(v));
  }
  append(el, ...children);
  return el;
}

export function append(el: Node, ...children: Child[]): void {
  for (const c of children) {
    if (c === null || c === undefined || c === false) continue;
    if (Array.isArray(c)) {
      append(el, ...c);
      continue;
    }
    el.appendChild(typeof c === 'object' ? c : document.createTextNode(visible(String(c))));
  }
}

const SVG_NS = 'http://www.w3.org/2000/svg';

/** An SVG element with attributes. */
export function s<K extends keyof SVGElementTagNameMap>(tag: K, attrs: Record<string, string | number | undefined> = {}, ...children: Array<Node | string>): SVGElementTagNameMap[K] {
  const el = document.createElementNS(SVG_NS, tag);
  for (const [k, v] of Object.entries(attrs)) if (v !== undefined) el.setAttribute(k, String(v));
  for (const c of children) el.appendChild(typeof c === 'string' ? document.createTextNode(visible(c)) : c);
  return el;
}

/** Sets text only when it changed (keeps selection and avoids layout work on live updates). */
export function setText(el: Element, text: string): void {
  const shown = visible(text);
  if (el.textContent !== shown) el.textContent = shown;
}

export function clear(el: Element): void {
  while (el.firstChild) el.removeChild(el.firstChild);
}
