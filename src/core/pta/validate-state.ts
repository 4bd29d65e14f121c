/** Hand-written structural checks of stored PTA parts; each returns an error message or null. */
import { STAGES, type State } from '../types.js';
import { strictlySorted } from '../equivalence/jaccard.js';
import { isRecord } from '../json-value.js';

export const isInt = (x: unknown): x is number => typeof x === 'number' && Number.isInteger(x);
export const isNonNegInt = (x: unknown): x is number => isInt(x) && x >= 0;
const isNum = (x: unknown): x is number => typeof x === 'number' && Number.isFinite(x);

const REQUIRED: Array<[keyof State, (x: unknown) => boolean, string]> = [
  ['t', isNonNegInt, 'a non-negative integer'],
  ['stage', (x) => typeof x === 'string' && (STAGES as readonly string[]).includes(x), `one of ${STAGES.join(', ')}`],
  ['kind', (x) => typeof x === 'string', 'a string'],
  ['tool', (x) => typeof x === 'string', 'a string'],
  ['hash', (x) => typeof x === 'string', 'a string'],
  ['tokens', (x) => Array.isArray(x) && x.every((t) => typeof t === 'string') && strictlySorted(x), 'a sorted array of distinct strings'],
  ['command', (x) => typeof x === 'boolean', 'a boolean'],
  ['changesFile', (x) => typeof x === 'boolean', 'a boolean'],
  ['failed', (x) => typeof x === 'boolean', 'a boolean'],
  ['cost', (x) => isNum(x) && x >= 0, 'a non-negative number'],
  ['unknown', (x) => typeof x === 'boolean', 'a boolean'],
];

const OPTIONAL: Array<[keyof State, (x: unknown) => boolean, string]> = [
  ['file', (x) => typeof x === 'string', 'a string'],
  ['scope', (x) => typeof x === 'string', 'a string'],
  ['range', (x) => Array.isArray(x) && x.length === 2 && x.every(isInt), 'a [start, end] pair of integers'],
  ['changesEnv', (x) => x === true, 'true (or absent)'],
  ['variant', (x) => x === true, 'true (or absent)'],
];

/** Checks one stored state; `where` prefixes the message (`nodes[3].state`). */
export function checkState(x: unknown, where: string): string | null {
  if (!isRecord(x)) return `${where}: expected an object`;
  for (const [key, ok, what] of REQUIRED) {
    if (!ok(x[key])) return `${where}.${key}: expected ${what}`;
  }
  for (const [key, ok, what] of OPTIONAL) {
    if (x[key] !== undefined && !ok(x[key])) return `${where}.${key}: expected ${what}`;
  }
  return null;
}

/** Checks a fixed-length array of finite numbers. */
export function checkNumbers(x: unknown, length: number, where: string): string | null {
  if (!Array.isArray(x) || x.length !== length) return `${where}: expected an array of ${length} numbers`;
  for (let i = 0; i < length; i++) if (!isNum(x[i])) return `${where}[${i}]: expected a finite number`;
  return null;
}
