/**
 * Which files of a shadow workspace went cold: no step has used them for {@link COLD_STEPS} steps (bench/README.md,
 * "Memory per session, seventh pass"). The workspace deflates their long texts then, on the step path, so a session
 * that steps every second (never idle long enough for `compact`) still keeps the files it is done with small.
 * O(1) a step amortised: a file is handed out once per spell of disuse (a smaller file waiting between
 * {@link BIG_COLD_STEPS} and {@link COLD_STEPS} unused steps is passed over again only when a file after it may go cold).
 */
import { SHARE_MIN_CHARS } from '../memory/packed-text.js';

/**
 * A file no step has used for this many steps keeps its texts of {@link COLD_MIN_CHARS} or more deflated (zlib level
 * `COLD_LEVEL`) until a step reads it again: most of a session's text is in files it is done with (the previous
 * run's, or ones viewed once). An agent mostly comes back to a file within a few steps or not for long. 10, not 16
 * (bench/README.md, ninth pass): an active disjoint session keeps ~1.5 KB less inflated text, for ~18 zlib calls
 * more over the memory bench's 1,900 disjoint steps; under 10, the session-cost run reads a file again after 8-9
 * unused steps: two inflates a session (~5 % of its CPU a step, measured at 8).
 */
export const COLD_STEPS = 10;

/**
 * A file keeping {@link BIG_FILE_CHARS} characters or more goes cold sooner, after this many steps unused: what a
 * text keeps inflated grows with its length, while a zlib call costs ~50-150 µs amid a session's work whatever the
 * length of a text this size, so the bytes saved per zlib call are largest for the longest texts (bench/README.md,
 * "mem19": −2 KB an active disjoint session, its inflated texts mostly such files left 4-9 steps before; the
 * session-cost run, which reads a ~5 KB file again 8-9 steps after its last use, makes no zlib call more).
 */
export const BIG_COLD_STEPS = 4;

/** Characters a file keeps (its known lines and newlines) from which it goes cold after {@link BIG_COLD_STEPS} steps. */
export const BIG_FILE_CHARS = 8192;

/**
 * Texts shorter than this are not deflated on the step path: a zlib call costs ~20-40 µs alone, ~60-150 µs amid a
 * session's work. 1,024 (the shortest text shared), not 2,048 (bench/README.md, twelfth pass): ~1.7 KB less an active
 * disjoint session for ~45 more deflates over 2,000 disjoint steps (the scorer ~1.5 % more CPU on them); 512 saved
 * ~0.5 KB more for ~32 more (~2.5 % more). The cost the ninth and tenth passes saw at 1,024 (the session-cost run
 * inflating ~2 texts a session) was the shared pool inflating its deflated entries to compare them, which a digest
 * now does instead.
 */
export const COLD_MIN_CHARS = SHARE_MIN_CHARS;

export class ColdFiles {
  /** Steps ended ({@link settle} calls). */
  private steps = 0;
  /**
   * The files used in the last {@link COLD_STEPS} steps, least recently used first, with the step of their last use;
   * undefined after {@link clear} until a step uses one (its ~0.5 KB map goes meanwhile).
   */
  private recent: Map<string, number> | undefined;
  /** The step before which no file in `recent` can have gone cold (its first entry's last use only moves later). */
  private coldCheck = 0;
  /** The file marked used last (the last entry of `recent`: marked again, it stays where it is). */
  private lastUsed: string | undefined;

  /** Marks `file` used by the current step. */
  used(file: string): void {
    const recent = (this.recent ??= new Map());
    if (file !== this.lastUsed) {
      recent.delete(file);
      this.lastUsed = file;
    }
    recent.set(file, this.steps);
  }

  /**
   * Ends a step: `owner.goneCold(file)` for each file that has gone unused for {@link COLD_STEPS} steps since its last use,
   * or {@link BIG_COLD_STEPS} when `owner.sizeOf(file)` is {@link BIG_FILE_CHARS} or more (an object with methods, not
   * callbacks: a bound function a workspace is ~0.1 KB).
   */
  settle(owner: { goneCold(file: string): void; sizeOf(file: string): number }): void {
    if (this.recent !== undefined && this.steps >= this.coldCheck) {
      // No file used from now on goes cold before this.
      this.coldCheck = this.steps + BIG_COLD_STEPS;
      for (const [file, at] of this.recent) {
        const unused = this.steps - at;
        if (unused < BIG_COLD_STEPS) {
          this.coldCheck = Math.min(this.coldCheck, at + BIG_COLD_STEPS);
          break;
        }
        if (unused < COLD_STEPS && owner.sizeOf(file) < BIG_FILE_CHARS) {
          // A smaller file waits its COLD_STEPS (the files after it, used later, are still looked at).
          this.coldCheck = Math.min(this.coldCheck, at + COLD_STEPS);
          continue;
        }
        this.recent.delete(file);
        if (file === this.lastUsed) this.lastUsed = undefined;
        owner.goneCold(file);
      }
    }
    this.steps++;
  }

  /** No file waits to go cold any more (every one deflated already, or released). */
  clear(): void {
    this.recent = undefined;
    this.lastUsed = undefined;
  }
}
