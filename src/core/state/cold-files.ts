/**
 * Which files of a shadow workspace went cold: no step has used them for {@link COLD_STEPS} steps (bench/README.md,
 * "Memory per session, seventh pass"). The workspace deflates their long texts then, on the step path, so a session
 * that steps every second (never idle long enough for `compact`) still keeps the files it is done with small.
 * O(1) a step amortised: a file is handed out once per spell of disuse.
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
   * Ends a step: `owner.goneCold(file)` for each file that has gone unused for {@link COLD_STEPS} steps since its last use
   * (an object with a method, not a callback: a bound function a workspace is ~0.1 KB).
   */
  settle(owner: { goneCold(file: string): void }): void {
    if (this.recent !== undefined && this.steps >= this.coldCheck) {
      this.coldCheck = this.steps + COLD_STEPS;
      for (const [file, at] of this.recent) {
        if (this.steps - at < COLD_STEPS) {
          this.coldCheck = at + COLD_STEPS;
          break;
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
