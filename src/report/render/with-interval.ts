/** An estimate with its interval as one piece of text (the terminal's lines, report.html's compact tables). */
import type { Interval } from '../../core/stats/interval.js';

/** `0.612 [0.55, 0.68]`: an estimate with its interval (`-` without an estimate, `[-]` without an interval, e.g. from one run or group). */
export function withInterval(x: number | null, iv: Interval | null, digits = 3): string {
  if (x === null) return '-';
  return iv === null ? `${x.toFixed(digits)} [-]` : `${x.toFixed(digits)} [${iv.lo.toFixed(digits)}, ${iv.hi.toFixed(digits)}]`;
}
