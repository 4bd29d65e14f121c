/** The palette shared with the SVG charts and report.html (src/report/render/palette.ts), and readable text on it. */
import { OKABE_ITO, PALETTE, SERIES, STAGE_COLORS, TIER_COLORS } from '../../src/report/render/palette.js';

export { OKABE_ITO, PALETTE, SERIES, STAGE_COLORS, TIER_COLORS };

export const STAGE_NAMES: Record<string, string> = { E: 'Exploration', I: 'Implementation', V: 'Verification', O: 'Orchestration' };

function luminance(hex: string): number {
  const c = [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16) / 255).map((v) => (v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4));
  return 0.2126 * (c[0] ?? 0) + 0.7152 * (c[1] ?? 0) + 0.0722 * (c[2] ?? 0);
}

/** Black or white, whichever contrasts more with `bg` (WCAG relative luminance). */
export function textOn(bg: string): string {
  const l = luminance(bg);
  return (l + 0.05) / 0.05 >= 1.05 / (l + 0.05) ? '#000000' : '#ffffff';
}

export const stageColor = (stage: string): string => STAGE_COLORS[stage as keyof typeof STAGE_COLORS] ?? '#999999';
export const tierColor = (tier: string): string => TIER_COLORS[tier as keyof typeof TIER_COLORS] ?? '#999999';
export const severityColor = (severity: string): string => (severity === 'stop' ? PALETTE.stop : PALETTE.warn);
