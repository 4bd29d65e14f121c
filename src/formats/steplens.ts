/**
 * The `steplens` format: JSON Lines, one normalised Step per line (src/core/types.ts). Each record
 * is validated structurally; a bad record becomes a diagnostic (`record N`, 1-based; the text
 * reader maps it to its line) and the rest is kept. A record without `t` gets its position.
 * Stream events: the records themselves.
 */
import type { Step } from '../core/types.js';
import { isRecord, typeName } from './json-helpers.js';
import { makeStep } from './step-builder.js';
import { formatIssues } from '../core/config.js';
import { stepRecordSchema } from './step-schema.js';
import { runStream } from './stream-runner.js';
import type { Diagnostic, FormatParser, ParseResult, StreamParser } from './types.js';

function looksLikeStep(v: unknown): boolean {
  return isRecord(v) && isRecord(v.action) && typeof v.action.kind === 'string';
}

/** How many leading records detection looks at: one broken first line must not hide a steplens log. */
const DETECT_WINDOW = 10;

function looksLikeSteps(doc: unknown[]): boolean {
  return doc.slice(0, DETECT_WINDOW).some(looksLikeStep);
}

function records(doc: unknown): unknown[] | undefined {
  if (Array.isArray(doc)) return doc.length === 0 || looksLikeSteps(doc) ? doc : undefined;
  return looksLikeStep(doc) ? [doc] : undefined;
}

class SteplensStream implements StreamParser {
  private n = 0;
  private lastT = -1;

  push(event: unknown): ReturnType<StreamParser['push']> {
    const pos = this.n++;
    const at = `record ${pos + 1}`;
    if (!isRecord(event)) return { steps: [], diagnostics: [{ at, message: `expected a step object, got ${typeName(event)}` }] };
    const r = stepRecordSchema.safeParse(event);
    if (!r.success) return { steps: [], diagnostics: [{ at, message: `invalid step: ${formatIssues(r.error)}` }] };
    const { t: given, ...rest } = r.data;
    // Steps are ordered by `t` downstream (a repeat is "blind" when nothing changed after the earlier step's t):
    // a `t` that repeats or goes back (records numbered by turn, all 0) is renumbered after the previous step's.
    // A record without `t` is numbered by its position (or just after the step before).
    let t = given ?? Math.max(pos, this.lastT + 1);
    const diagnostics: Diagnostic[] = [];
    if (t <= this.lastT) {
      diagnostics.push({ at, message: `t ${t} is not after the previous step's t ${this.lastT}; numbered ${this.lastT + 1}` });
      t = this.lastT + 1;
    }
    this.lastT = t;
    const step: Step = makeStep(t, { ...rest, action: rest.action });
    return { steps: [step], diagnostics };
  }

  end(): ReturnType<StreamParser['end']> {
    return { steps: [], diagnostics: [] };
  }
}

/** The `steplens` JSON Lines parser. */
export const steplensParser: FormatParser = {
  name: 'steplens',
  detect: (doc) => (Array.isArray(doc) ? looksLikeSteps(doc) : looksLikeStep(doc)),
  events: (doc) => records(doc) ?? [],
  stream: () => new SteplensStream(),
  parse(doc): ParseResult {
    const recs = records(doc);
    if (recs === undefined) {
      return { format: 'steplens', meta: {}, steps: [], diagnostics: [{ at: 'document', message: `expected steplens step records (objects with an \`action.kind\`), got ${typeName(doc)}` }] };
    }
    return { format: 'steplens', meta: {}, ...runStream(new SteplensStream(), recs) };
  },
};
