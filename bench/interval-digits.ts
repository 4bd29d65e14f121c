/**
 * A measured value beside its 95 % interval, to the digits the interval supports: two significant digits of its
 * width, the point and both bounds alike (audit29: run-all printed four significant digits of each, 0.8623
 * [0.6415, 1.182], where the interval is half a unit wide). Without an interval the value keeps four.
 */
export function intervalDigits(width: number): number {
  if (!(width > 0) || !Number.isFinite(width)) return 4;
  return Math.max(0, 1 - Math.floor(Math.log10(width)));
}

/** The value and its interval as printed: `[value, "[lo, hi]"]`; no interval, `[value to 4 significant digits, ""]`. */
export function withInterval(value: number, interval?: readonly [number, number]): [string, string] {
  if (interval === undefined) return [String(Number(value.toPrecision(4))), ''];
  const d = intervalDigits(interval[1] - interval[0]);
  return [value.toFixed(d), `[${interval[0].toFixed(d)}, ${interval[1].toFixed(d)}]`];
}
