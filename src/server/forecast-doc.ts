/**
 * `GET /v1/forecast`'s answer, kept per view and rebuilt only when what it shows changed (T46). A tenant's document
 * holds its learned models, its versions (each with a validation line per source) and its last 50 attempts (a
 * reason per source): with 64 sources under made-up 256-character agent names, 3.8 MB of JSON. It was built and
 * serialised per request, so one tenant polling its own 32 at a time held every other client's ping 16 s.
 *
 * What changes it: a version put in force or restored (the holder's history gets an entry each time), an attempt
 * (the learner's `attemptsRevision`), and the count of sessions kept (at every session with an outcome). The
 * models, versions and attempts are serialised once per version or attempt; the count is joined to them per change
 * of it; every request until the next change is sent the same bytes.
 */
import type { ForecastHolder } from './forecast-holder.js';
import type { ForecastLearner } from './forecast-learner.js';

/** Views kept at most (tenants are the token file's; an operator may name any tenant with ?tenant=). */
const MAX_VIEWS = 64;

interface Kept {
  /** What the parts were built from: the holder's newest history entry, the learner's attempts revision. */
  entry: object | undefined;
  attempts: number;
  head: string;
  tail: string;
  /** The whole answer, for `sessions` kept. */
  sessions: number;
  bytes: Buffer;
}

export class ForecastDocs {
  private readonly kept = new Map<string, Kept>();
  /** Parts built (an attempt or version), and whole answers joined (any change): for tests. */
  partsBuilt = 0;
  joined = 0;

  constructor(
    private readonly holder: ForecastHolder,
    private readonly learner: ForecastLearner | undefined,
  ) {}

  /**
   * The answer for `view` (a tenant, or undefined: the shared models); `operator`: the reader is one (it is also
   * told which tenants hold models of their own).
   */
  bytes(view: string | undefined, operator: boolean): Buffer {
    const key = `${operator ? 'o' : 'a'}:${view ?? ''}`;
    const entry = this.holder.history.at(-1);
    const attempts = this.learner?.attemptsRevision ?? 0;
    const sessions = this.learner?.sessions(view) ?? 0;
    let k = this.kept.get(key);
    if (k !== undefined && k.entry === entry && k.attempts === attempts) {
      if (k.sessions === sessions) return k.bytes;
    } else {
      const [head, tail] = this.parts(view, operator);
      this.partsBuilt++;
      if (k === undefined && this.kept.size >= MAX_VIEWS) this.kept.clear();
      k = { entry, attempts, head, tail, sessions: -1, bytes: Buffer.alloc(0) };
      this.kept.set(key, k);
    }
    k.sessions = sessions;
    k.bytes = Buffer.from(this.learner === undefined ? k.head : `${k.head}${sessions}${k.tail}`);
    this.joined++;
    return k.bytes;
  }

  /** The answer's text before and after the count of sessions kept (the whole answer before it without a learner). */
  private parts(view: string | undefined, operator: boolean): [string, string] {
    const { holder, learner } = this;
    const file = holder.fileFor(view);
    const head = JSON.stringify({
      enabled: true,
      version: file.version,
      models: file.models.map((m) => ({
        match: m.match,
        trainedOn: m.trainedOn,
        calibration: m.calibration,
        ...(m.recalibrated !== undefined ? { recalibrated: m.recalibrated } : {}),
        ...(m.learnedOwn !== undefined ? { learnedOwn: m.learnedOwn } : {}),
      })),
      // Whether `POST /v1/rank` can take `"rankModel": "end"` (rank30): the file's end-of-run models and features.
      ...(file.end !== undefined ? { endModel: { models: file.end.models.length, features: Object.keys(file.end.tables).length } } : {}),
      history: holder.historyOf(view),
    }).slice(0, -1);
    if (learner === undefined) return [`${head},"learning":null}`, ''];
    // Operators: which tenants hold models of their own (each readable with ?tenant=).
    const tenants = operator && learner.scope === 'tenant' ? `,"tenants":${JSON.stringify(holder.tenants)}` : '';
    return [`${head},"learning":{"scope":${JSON.stringify(learner.scope)},"sessions":`, `,"attempts":${JSON.stringify(learner.attempts(view))}${tenants}}}`];
  }
}
