/**
 * What a state needs from a terminal command (Jaccard tokens of the
 * normalised text, content hash), memoised per command string and repository root.
 * Agents repeat commands (test runs, greps; every rollout of a GRPO group
 * starts alike), so most steps hit; a hit also shares the token array
 * between sessions instead of keeping a copy per state. Pure: same input,
 * same output, so online still equals offline.
 */
import { rewriteRoots } from '../labeler/paths.js';
import { intern } from '../memory/flat-string.js';
import { collapseWhitespace, commandTokens, md5, normalizeCommand } from './normalize.js';

/** The memoised facts of one terminal command. */
export interface TerminalFacts {
  /** Sorted distinct tokens (frozen: shared between states). */
  tokens: readonly string[];
  /** MD5 hex of the state's hashed content (what `hashContent` gives for the action). */
  hash: string;
}

/** Entries kept, and characters of command text kept over all entries (least recently used go first). */
export const TERMINAL_CACHE_ENTRIES = 4096;
export const TERMINAL_CACHE_CHARS = 4_000_000;
/** Commands longer than this are not kept (a heredoc writing a whole file is rarely repeated). */
export const MAX_KEY_CHARS = 65_536;

/** Command text → (kind and root → facts): keyed by the command string itself, so a lookup allocates nothing. */
const cache = new Map<string, Map<string, TerminalFacts>>();
let cachedChars = 0;

function compute(kind: 'shell' | 'code', command: string, root: string | undefined): TerminalFacts {
  const normalized = normalizeCommand(command, root);
  // A code cell's hash keeps a leading `cd` (hashContent's rule); only its tokens use the shell normalisation.
  const hashed = kind === 'shell' ? normalized : collapseWhitespace(rewriteRoots(command, root));
  return { tokens: Object.freeze(commandTokens(normalized).map(intern)), hash: intern(md5(`${kind}\0${hashed}`)) };
}

/** The facts of a shell command or code cell (`kind`), from the cache when seen before. */
export function terminalFacts(kind: 'shell' | 'code', command: string, root: string | undefined): TerminalFacts {
  if (command.length > MAX_KEY_CHARS) return compute(kind, command, root);
  const variant = root === undefined ? kind : `${kind}\0${root}`;
  let variants = cache.get(command);
  if (variants !== undefined) {
    const hit = variants.get(variant);
    cache.delete(command);
    cache.set(command, variants);
    if (hit !== undefined) return hit;
  } else {
    variants = new Map();
    cache.set(command, variants);
    cachedChars += command.length;
  }
  const facts = compute(kind, command, root);
  variants.set(variant, facts);
  while (cache.size > TERMINAL_CACHE_ENTRIES || cachedChars > TERMINAL_CACHE_CHARS) {
    const oldest = cache.keys().next().value as string;
    cache.delete(oldest);
    cachedChars -= oldest.length;
  }
  return facts;
}
