/**
 * The last calibration, as `steplens calibrate --out-dir DIR` left it (DIR is
 * `serve --calibration DIR`): its trade-off chart and the policy it chose.
 * Read on each request, so a newer calibration written to DIR shows at once.
 */
import { existsSync } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { SteplensError } from '../errors.js';
import type { CalibrationResponse } from '../protocol/view-bodies.js';

/** A configured calibration, as `GET /v1/calibration` answers it. */
export type CalibrationSummary = Extract<CalibrationResponse, { configured: true }>;

function dirOf(dir: string | undefined): string {
  if (dir === undefined) throw new SteplensError('unknown_task', 'no calibration configured (start the server with --calibration DIR, the --out-dir of steplens calibrate)');
  return dir;
}

async function read(file: string): Promise<string> {
  try {
    return await readFile(file, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') throw new SteplensError('unknown_task', `no calibration found: ${path.basename(file)} is missing from the calibration directory`);
    throw new SteplensError('bad_input', `cannot read the calibration's ${path.basename(file)}: ${code ?? 'error'}`);
  }
}

const obj = (x: unknown): Record<string, unknown> | undefined => (typeof x === 'object' && x !== null && !Array.isArray(x) ? (x as Record<string, unknown>) : undefined);
const num = (x: unknown): number | undefined => (typeof x === 'number' && Number.isFinite(x) ? x : undefined);

/** What the page shows beside the chart, from DIR/calibration.json. */
export async function readCalibration(dir: string | undefined): Promise<CalibrationSummary> {
  const file = path.join(dirOf(dir), 'calibration.json');
  const text = await read(file);
  let doc: Record<string, unknown> | undefined;
  try {
    doc = obj(JSON.parse(text));
  } catch {
    doc = undefined;
  }
  if (doc?.policy === undefined) throw new SteplensError('bad_input', 'the calibration\'s calibration.json is not what steplens calibrate writes (no "policy")');
  const tradeoff = obj(doc.tradeoff);
  const runs = obj(tradeoff?.runs);
  const choice = obj(tradeoff?.choice);
  const maxFalseStop = num(choice?.maxFalseStop);
  const confidence = num(choice?.confidence);
  // A policy its own held-out check rejected is written warn-only: the page must not read as if it stopped runs.
  const warnOnly = typeof choice?.warnOnly === 'boolean' ? choice.warnOnly : undefined;
  const note = typeof choice?.note === 'string' ? choice.note : undefined;
  const check = obj(tradeoff?.confirmation)?.check;
  const passing = num(runs?.passing);
  const failing = num(runs?.failing);
  return {
    configured: true,
    writtenAt: (await stat(file)).mtime.toISOString(),
    policy: doc.policy,
    ...(maxFalseStop !== undefined ? { maxFalseStop } : {}),
    ...(confidence !== undefined ? { confidence } : {}),
    ...(warnOnly !== undefined ? { warnOnly } : {}),
    ...(note !== undefined ? { note } : {}),
    ...(typeof check === 'string' ? { check } : {}),
    ...(runs ? { runs: { ...(passing !== undefined ? { passing } : {}), ...(failing !== undefined ? { failing } : {}) } } : {}),
  };
}

/** DIR/tradeoff.svg, checked to be an SVG document. */
export async function readTradeoffSvg(dir: string | undefined): Promise<string> {
  const svg = await read(path.join(dirOf(dir), 'tradeoff.svg'));
  if (!/^\s*(<\?xml[^>]*>\s*)?<svg[\s>]/.test(svg)) throw new SteplensError('bad_input', "the calibration's tradeoff.svg is not an SVG document");
  return svg;
}

/**
 * The operator's line at start when `--calibration DIR` holds no calibration.json (a mistyped folder, or none
 * written yet): the page and `GET /v1/calibration` say only "missing from the calibration directory", and name no
 * folder of the server's to a client.
 */
export function calibrationDirWarning(dir: string | undefined): string | undefined {
  if (dir === undefined || existsSync(path.join(dir, 'calibration.json'))) return undefined;
  return `--calibration ${dir}: no calibration.json there (yet); GET /v1/calibration answers unknown_task until steplens calibrate --out-dir ${dir} writes one`;
}
