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
import { collapseWhitespace, commandTokens, headLength, md5, normalizeCommand, restDigest } from './normalize.js';

/** The memoised facts of one terminal command. */
export interface TerminalFacts {
  /** Sorted distinct tokens (frozen: shared between states). */
  tokens: readonly string[];
  /** MD5 hex of the state's hashed content (what `hashContent` gives for the action). */
  hash: string;
  /** The exact form's key per directory the command ran in (filled by `terminalExactKey`, bounded). */
  exact?: Map<string, number>;
}

/** The token list of every non-terminal state (frozen: shared). */
export const NO_TOKENS: readonly string[] = Object.freeze([]);

/** The hash each token array was computed with (a state keeps its token array and finds its hash here). */
const hashOfTokens = new WeakMap<readonly string[], string>();

/** The hash of the terminal facts whose token array `tokens` is, if it is one. */
export function tokensHash(tokens: readonly string[]): string | undefined {
  return hashOfTokens.get(tokens);
}

/** Entries kept, and bytes kept over all entries (command text and facts; least recently used go first). */
export const TERMINAL_CACHE_ENTRIES = 4096;
export const TERMINAL_CACHE_BYTES = 16 * 1024 * 1024;
/** Commands longer than this are not kept (a heredoc writing a whole file is rarely repeated). */
export const MAX_KEY_CHARS = 65_536;

interface Entry {
  /** Kind and root → facts. */
  variants: Map<string, TerminalFacts>;
  bytes: number;
  /** {@link clock} when the entry last moved to the back of the eviction order. */
  moved: number;
}

/** Lookups so far. */
let clock = 0;

/**
 * A hit moves its entry to the back of the eviction order only when the entry last moved more than this many
 * lookups ago: a `delete` and `set` of the command (two more hash-table probes, each comparing the whole command
 * text) on every hit cost ~0.1 µs a step. An entry evicted first has still gone unused for at least
 * {@link TERMINAL_CACHE_ENTRIES} - this many lookups: the order stays least recently used but for that slack.
 */
const MOVE_AFTER = TERMINAL_CACHE_ENTRIES / 4;

/** Command text → entry: keyed by the command string itself, so a lookup allocates nothing. */
const cache = new Map<string, Entry>();
let cachedBytes = 0;

/** Approximate bytes of one set of facts: the token array, the tokens (counted even when pooled) and the hash. */
function factsBytes(facts: TerminalFacts): number {
  let bytes = 160;
  for (const t of facts.tokens) bytes += 8 + 2 * t.length;
  return bytes;
}

/**
 * Characters of a normalised command its tokens are drawn from: a longer one (a heredoc writing a whole
 * file) is tokenised by its first 64 KiB, cut at a space, so per-step work and the tokens a state keeps stay
 * bounded. Its hash still covers all of it. The longest real command seen has 6,111 characters.
 */
export const MAX_TOKEN_CHARS = 65_536;

function tokenText(normalized: string): string {
  if (normalized.length <= MAX_TOKEN_CHARS) return normalized;
  const cut = normalized.lastIndexOf(' ', MAX_TOKEN_CHARS);
  return normalized.slice(0, cut > 0 ? cut : MAX_TOKEN_CHARS);
}

function compute(kind: 'shell' | 'code', command: string, root: string | undefined): TerminalFacts {
  // Past MAX_NORMALIZED_CHARS only the head is normalised (and tokenised), the rest hashed as written: hashContent's rule.
  const head = headLength(command);
  const text = head === command.length ? command : command.slice(0, head);
  const normalized = normalizeCommand(text, root);
  // A code cell's hash keeps a leading `cd` (hashContent's rule); only its tokens use the shell normalisation.
  const hashed = kind === 'shell' ? normalized : collapseWhitespace(rewriteRoots(text, root));
  const facts = { tokens: Object.freeze(commandTokens(tokenText(normalized)).map(intern)), hash: intern(md5(`${kind}\0${hashed}${restDigest(command, head)}`)) };
  hashOfTokens.set(facts.tokens, facts.hash);
  return facts;
}

/** The root the two variant keys below were made for (sessions of a server mostly share one root: made once, not per step). */
let keyRoot: string | undefined;
let shellKey = 'shell';
let codeKey = 'code';

/** `kind`, or `kind` NUL `root`: an entry's key for the kind and root. */
function variantKey(kind: 'shell' | 'code', root: string | undefined): string {
  if (root === undefined) return kind;
  if (root !== keyRoot) {
    keyRoot = root;
    shellKey = `shell\0${root}`;
    codeKey = `code\0${root}`;
  }
  return kind === 'shell' ? shellKey : codeKey;
}

/** The facts of a shell command or code cell (`kind`), from the cache when seen before. */
export function terminalFacts(kind: 'shell' | 'code', command: string, root: string | undefined): TerminalFacts {
  if (command.length > MAX_KEY_CHARS) return compute(kind, command, root);
  const variant = variantKey(kind, root);
  const now = ++clock;
  let entry = cache.get(command);
  if (entry !== undefined) {
    const hit = entry.variants.get(variant);
    if (now - entry.moved > MOVE_AFTER) {
      cache.delete(command);
      cache.set(command, entry);
      entry.moved = now;
    }
    if (hit !== undefined) return hit;
  } else {
    entry = { variants: new Map(), bytes: 64 + 2 * command.length, moved: now };
    cache.set(command, entry);
    cachedBytes += entry.bytes;
  }
  const facts = compute(kind, command, root);
  entry.variants.set(variant, facts);
  const added = factsBytes(facts) + 2 * variant.length;
  entry.bytes += added;
  cachedBytes += added;
  while (cache.size > TERMINAL_CACHE_ENTRIES || cachedBytes > TERMINAL_CACHE_BYTES) {
    const [oldest, old] = cache.entries().next().value!;
    cache.delete(oldest);
    cachedBytes -= old.bytes;
  }
  return facts;
}

/** Entries and approximate bytes the cache holds (tests, metrics). */
export function terminalCacheSize(): { entries: number; bytes: number } {
  return { entries: cache.size, bytes: cachedBytes };
}
