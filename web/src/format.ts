/** Number and text formats the pages share. */

export const one = (x: number | null | undefined): string => (x === null || x === undefined || !Number.isFinite(x) ? '–' : x.toFixed(1));
export const signed = (x: number): string => `${x >= 0 ? '+' : '−'}${Math.abs(x).toFixed(1)}`;
export const pct = (x: number | null | undefined): string => (x === null || x === undefined ? '–' : `${(100 * x).toFixed(1)} %`);

export function referenceText(r: { kind: string; version?: number; paths?: number }): string {
  if (r.kind !== 'pta') return 'prior';
  return `PTA v${r.version ?? '?'}${r.paths !== undefined ? ` · ${r.paths} paths` : ''}`;
}

export function ago(ms: number, now = Date.now()): string {
  const s = Math.max(0, Math.round((now - ms) / 1000));
  if (s < 60) return `${s} s ago`;
  if (s < 3600) return `${Math.round(s / 60)} min ago`;
  return `${Math.round(s / 3600)} h ago`;
}

export const signalName = (kind: string): string => kind.replace(/_/g, ' ');
