/**
 * The one colour palette of every picture steplens draws (SVG charts, report.html, the web view):
 * Okabe & Ito's eight colours, chosen to stay distinct under the common colour-vision deficiencies
 * (no red/green pair carries meaning alone; markers and dashes back the colours up).
 */
export const OKABE_ITO = {
  black: '#000000',
  orange: '#E69F00',
  skyBlue: '#56B4E9',
  bluishGreen: '#009E73',
  yellow: '#F0E442',
  blue: '#0072B2',
  vermillion: '#D55E00',
  reddishPurple: '#CC79A7',
} as const;

/** Meanings, so every picture says the same thing with the same colour. */
export const PALETTE = {
  pass: OKABE_ITO.blue,
  fail: OKABE_ITO.vermillion,
  warn: OKABE_ITO.orange,
  stop: OKABE_ITO.vermillion,
  bound: OKABE_ITO.black,
  referenceFree: OKABE_ITO.blue,
  reference: OKABE_ITO.bluishGreen,
  baseline: OKABE_ITO.orange,
  axis: '#444444',
  grid: '#dddddd',
  text: '#1a1a1a',
  background: '#ffffff',
} as const;

/** Stage colours (E exploration, I implementation, V verification, O orchestration). */
export const STAGE_COLORS = {
  E: OKABE_ITO.skyBlue,
  I: OKABE_ITO.orange,
  V: OKABE_ITO.bluishGreen,
  O: OKABE_ITO.reddishPurple,
} as const;

/** Tier colours; Lucky and the failing tiers differ in hue and in lightness. */
export const TIER_COLORS = {
  Ideal: OKABE_ITO.bluishGreen,
  Solid: OKABE_ITO.blue,
  Lucky: OKABE_ITO.yellow,
  'Partial-fail': OKABE_ITO.orange,
  'Off-track': OKABE_ITO.vermillion,
} as const;

/** Series colours in order, for charts with several lines (models, signals). */
export const SERIES = [OKABE_ITO.blue, OKABE_ITO.orange, OKABE_ITO.bluishGreen, OKABE_ITO.reddishPurple, OKABE_ITO.skyBlue, OKABE_ITO.vermillion, OKABE_ITO.yellow, OKABE_ITO.black] as const;
