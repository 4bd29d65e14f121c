/**
 * Repository-root normalisation: absolute paths under `/testbed`, `/repo`,
 * `/workspace/<repo>` or the trajectory's own root become repo-relative.
 */

const KNOWN_ROOT = /^(\/testbed|\/repo|\/workspace\/[^/]+)(?=\/|$)/;
/** A last path segment that names a file, not a repository directory (`/workspace/reproduce.py`). */
const FILE_NAME = /\.(py|pyi|pyc|js|mjs|cjs|ts|tsx|jsx|java|class|jar|c|h|cc|cpp|hpp|go|rs|rb|php|pony|sh|bash|txt|md|rst|json|jsonl|ya?ml|toml|cfg|ini|diff|patch|log|out|csv|html|css|xml)$/i;

/**
 * True when no segment of `p` is empty, `.` or `..` (past the leading `/` of an absolute path): `p` is then its own
 * normal form. Most paths an agent writes are (`astroid/nodes/node_classes.py`), and the labeler resolves several
 * a step, so they skip the split and join.
 */
function isNormal(p: string): boolean {
  let start = p.charCodeAt(0) === 0x2f ? 1 : 0;
  for (;;) {
    const slash = p.indexOf('/', start);
    const end = slash < 0 ? p.length : slash;
    const len = end - start;
    if (len === 0) return false;
    if (p.charCodeAt(start) === 0x2e && (len === 1 || (len === 2 && p.charCodeAt(start + 1) === 0x2e))) return false;
    if (slash < 0) return true;
    start = slash + 1;
  }
}

/** Normalises a POSIX path: collapses `//`, `.` and `..` segments; keeps it absolute or relative. */
export function normalizePosix(p: string): string {
  return isNormal(p) ? p : normalizeSegments(p);
}

/** {@link normalizePosix} by splitting and joining every path (what the shortcut for normal paths must agree with). */
export function normalizeSegments(p: string): string {
  const absolute = p.startsWith('/');
  const out: string[] = [];
  for (const seg of p.split('/')) {
    if (seg === '' || seg === '.') continue;
    if (seg === '..') {
      if (out.length > 0 && out[out.length - 1] !== '..') out.pop();
      else if (!absolute) out.push('..');
      continue;
    }
    out.push(seg);
  }
  const joined = out.join('/');
  return absolute ? `/${joined}` : joined === '' ? '.' : joined;
}

/**
 * The absolute repository root a path starts with, if it is a well-known one.
 * `/workspace/<name>` is a root only when it is a directory: either the path goes
 * on below it, or `<name>` does not look like a file name (OpenHands agents
 * write scratch files such as `/workspace/reproduce_issue.py` next to the repo).
 */
export function knownRoot(absPath: string): string | undefined {
  const root = KNOWN_ROOT.exec(absPath)?.[1];
  if (!root?.startsWith('/workspace/')) return root;
  if (absPath.length > root.length) return root;
  return FILE_NAME.test(root) ? undefined : root;
}

/** Where relative paths are resolved: the repository root and the current directory inside it. */
export interface PathContext {
  /** Absolute repository root (learned from the trajectory), if known. */
  root?: string;
  /** Current directory: repo-relative (`.` = root) or absolute when outside the repo. */
  dir: string;
}

/** Strips a repository root from an absolute path; undefined when the path is outside every root. */
export function stripRoot(abs: string, root: string | undefined): string | undefined {
  const n = normalizePosix(abs);
  // The step's own directory is most often the root itself (`cwd: /testbed`): the first root tried below, matched.
  if (n === root && root !== '/') return '.';
  const roots = [root, knownRoot(n)].filter((r): r is string => r !== undefined && r !== '/');
  for (const r of roots) {
    if (n === r) return '.';
    if (n.startsWith(`${r}/`)) return n.slice(r.length + 1);
  }
  return undefined;
}

/**
 * Resolves a path as the agent wrote it to a repo-relative path (`a/b.py`, `.`
 * for the root) or, when it lies outside the repository, a normalised absolute path.
 */
export function toRepoPath(path: string, ctx: PathContext): string {
  const p = path.trim();
  if (p.startsWith('/')) return stripRoot(p, ctx.root) ?? normalizePosix(p);
  if (p.startsWith('~')) return normalizePosix(p);
  const base = ctx.dir === '.' ? '' : `${ctx.dir}/`;
  const joined = normalizePosix(base + p);
  if (joined.startsWith('/')) return stripRoot(joined, ctx.root) ?? joined;
  return joined;
}

/** True for a path outside the repository (absolute after normalisation, or escaping with `..`). */
export function isOutsideRepo(repoPath: string): boolean {
  return repoPath.startsWith('/') || repoPath.startsWith('~') || repoPath === '..' || repoPath.startsWith('../');
}

/** Rewrites absolute repository roots inside free text (a command) to repo-relative form. */
export function rewriteRoots(text: string, root: string | undefined): string {
  const roots = ['/testbed', '/repo', '/workspace/[^/\\s\'"]+(?=/)'];
  if (root && root !== '/' && root !== '/testbed' && root !== '/repo') roots.unshift(root.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
  const re = new RegExp(`(^|[\\s'"=:(])(?:${roots.join('|')})(/|(?=[\\s'";|&)]|$))`, 'g');
  return text.replace(re, (_m, pre: string, slash: string) => (slash === '/' ? pre : `${pre}.`));
}
