/**
 * A fast path for the commonest frame, `step` with a `steplens` step: a
 * hand-written check that accepts only values the zod schemas accept and
 * that zod would return unchanged (no key it would strip), so the parsed
 * JSON is used as is instead of being validated and copied by zod. Anything
 * else returns undefined and goes through zod, which also writes the error
 * message. A property test compares both on random and real input.
 */
import { isRecord, type JsonObject } from '../core/json-value.js';
import type { Step } from '../core/types.js';
import type { StepMessage } from './client-messages.js';
// The start's own check: this one's copy lacked `.` and `..` (zod refuses them), and a fuzzed step of session "." passed.
import { sessionId } from './fast-session.js';

type Check = (v: unknown) => boolean;

const str: Check = (v) => typeof v === 'string';
const int: Check = (v) => Number.isSafeInteger(v);
const count: Check = (v) => Number.isSafeInteger(v) && (v as number) >= 0;
const nonNeg: Check = (v) => typeof v === 'number' && Number.isFinite(v) && v >= 0;
const range: Check = (v) => Array.isArray(v) && v.length === 2 && int(v[0]) && int(v[1]);

/**
 * True when every own key of `o` has a check in `fields` that passes, and every key in `required` is present.
 * Checks are looked up as own properties only: a key such as `__proto__` or `valueOf` must not find
 * `Object.prototype` members (it would crash, or pass a key zod strips).
 */
function shaped(o: JsonObject, fields: Record<string, Check>, required: readonly string[]): boolean {
  for (const k in o) {
    if (!Object.hasOwn(o, k)) continue;
    const check = Object.hasOwn(fields, k) ? fields[k] : undefined;
    if (!check?.(o[k])) return false;
  }
  for (const k of required) if (!Object.hasOwn(o, k)) return false;
  return true;
}

const kind: Check = (v) => typeof v === 'string';
const OPS = new Set(['create', 'str_replace', 'insert', 'write', 'undo', 'replace_lines']);
const ACTIONS: Record<string, [Record<string, Check>, string[]]> = {
  shell: [{ kind, command: str }, ['command']],
  code: [{ kind, language: str, code: str }, ['language', 'code']],
  view: [{ kind, path: str, range }, ['path']],
  edit: [{ kind, op: (v) => typeof v === 'string' && OPS.has(v), path: str, old: str, new: str, text: str, range }, ['op', 'path']],
  search: [{ kind, query: str, path: str }, []],
  list: [{ kind, path: str }, []],
  think: [{ kind, text: str }, []],
  finish: [{ kind, text: str }, []],
  message: [{ kind, text: str }, []],
  none: [{ kind }, []],
  other: [{ kind, name: str }, ['name']],
};

/**
 * A `shell` action (most steps' kind) checked by a switch over its keys, as {@link stepShaped}; every other kind
 * through its table: a table lookup and a call through it for each key made the action's check about half of the
 * record's (bench/README.md, "Lifecycle, eleventh pass").
 */
function shellShaped(o: JsonObject): boolean {
  let command = false;
  for (const k in o) {
    if (!Object.hasOwn(o, k)) continue;
    switch (k) {
      case 'kind':
        break; // 'shell': read by the caller
      case 'command':
        if (typeof o[k] !== 'string') return false;
        command = true;
        break;
      default:
        return false;
    }
  }
  return command;
}

const action: Check = (v) => {
  if (!isRecord(v) || typeof v.kind !== 'string') return false;
  if (v.kind === 'shell') return shellShaped(v);
  if (!Object.hasOwn(ACTIONS, v.kind)) return false;
  const [fields, required] = ACTIONS[v.kind]!;
  return shaped(v, fields, required);
};

/** A step's `tokens`: `prompt` and `completion`, each optional, by a switch as {@link stepShaped}. */
function tokensShaped(o: JsonObject): boolean {
  for (const k in o) {
    if (!Object.hasOwn(o, k)) continue;
    switch (k) {
      case 'prompt':
      case 'completion':
        if (!nonNeg(o[k])) return false;
        break;
      default:
        return false;
    }
  }
  return true;
}

/**
 * {@link shaped} for the step record's fields, written out as a switch: the record has ten keys or so, and looking
 * each key's check up in a table then calling through it made the envelope and record checks 0.62 µs a frame
 * against 0.45 (bench/README.md, "Lifecycle CPU per step").
 */
function stepShaped(o: JsonObject): boolean {
  let required = 0;
  for (const k in o) {
    if (!Object.hasOwn(o, k)) continue;
    const v = o[k];
    switch (k) {
      case 'tool':
        required |= 1;
        if (typeof v !== 'string') return false;
        break;
      case 'action':
        required |= 2;
        if (!action(v)) return false;
        break;
      case 'observation':
      case 'timestamp':
      case 'thought':
      case 'cwd':
      case 'id':
        if (typeof v !== 'string') return false;
        break;
      case 't':
        if (!count(v)) return false;
        break;
      case 'exitCode':
        if (!int(v)) return false;
        break;
      case 'args':
        if (!isRecord(v) || Object.getPrototypeOf(v) !== Object.prototype) return false;
        break;
      case 'tokens':
        if (!isRecord(v) || !tokensShaped(v)) return false;
        break;
      default:
        return false;
    }
  }
  // `tool` and `action` present (as enumerable own keys: a parsed frame has no other kind).
  return required === 3;
}

/** The step record itself when it certainly passes `stepRecordSchema` unchanged; undefined = ask zod. */
export function fastStepRecord(v: unknown): (Omit<Step, 't'> & { t?: number }) | undefined {
  return isRecord(v) && stepShaped(v) ? (v as Omit<Step, 't'> & { t?: number }) : undefined;
}

/**
 * The `step` message itself when it certainly passes `stepMessageSchema` unchanged; undefined = ask zod. Its four
 * keys by a switch, as {@link stepShaped} (a table of checks called through took ~150 ns a frame).
 */
export function fastStepMessage(doc: JsonObject): StepMessage | undefined {
  let seen = 0;
  for (const k in doc) {
    if (!Object.hasOwn(doc, k)) continue;
    const v = doc[k];
    switch (k) {
      case 'type':
        if (v !== 'step') return undefined;
        seen |= 1;
        break;
      case 'session':
        if (!sessionId(v)) return undefined;
        seen |= 2;
        break;
      case 'seq':
        if (!count(v)) return undefined;
        seen |= 4;
        break;
      case 'step':
        if (v === undefined) return undefined;
        seen |= 8;
        break;
      default:
        return undefined;
    }
  }
  return seen === 15 ? (doc as unknown as StepMessage) : undefined;
}

/**
 * The step record {@link fastStepRecord} took last for a frame ({@link markChecked}), so that the session's
 * `parseStepPayload` of that same object, a moment later, does not walk it again. One slot, cleared when used: a
 * record is the frame's own parsed JSON, which nothing changes between the frame's parse and its session's step.
 */
let checked: object | undefined;

/** Remembers `record` as taken by {@link fastStepRecord} (see {@link checked}). */
export function markChecked(record: object): void {
  checked = record;
}

/** True once for the record last {@link markChecked marked}: it was taken by {@link fastStepRecord} already. */
export function takeChecked(v: unknown): boolean {
  if (v === undefined || v !== checked) return false;
  checked = undefined;
  return true;
}
