/**
 * The one errors catalogue: every error steplens reports has a stable code.
 * Wire codes (protocol v1 `error.code`, protocol/server-messages.ts) are a subset;
 * the rest are HTTP and CLI codes. proto/README.md lists them all (a test keeps
 * the three in step): a new code goes here first.
 */

export const ERROR_CODES = {
  bad_message: { status: 400, summary: 'The message or body is malformed or invalid.' },
  unknown_session: { status: 404, summary: 'No such session.' },
  duplicate_session: { status: 409, summary: 'A session with this id is already open.' },
  out_of_order: { status: 409, summary: 'A step arrived past the next expected seq.' },
  too_large: { status: 413, summary: 'A frame, body or session exceeds a configured limit.' },
  unauthorized: { status: 401, summary: 'Missing or wrong bearer token.' },
  forbidden: { status: 403, summary: "The token's role does not allow this (an operator's token is needed)." },
  quota_exceeded: {
    status: 429,
    summary: "A tenant's own quota (its sessions, its WebSocket connections, its references, its own PTAs' bytes, its live viewers, its steps held in memory or kept in Redis) is used up.",
  },
  overloaded: { status: 503, summary: 'A session or connection limit is reached, or the client is too slow.' },
  internal: { status: 500, summary: 'An unexpected server fault.' },
  unavailable: { status: 503, summary: 'The store cannot take it now (Redis unreachable or out of memory, the data folder full): nothing was accepted; retry later.' },
  unknown_task: { status: 404, summary: 'No such task or reference.' },
  unknown_route: { status: 404, summary: 'No such HTTP route (method and path).' },
  bad_input: { status: 400, summary: 'An input file or trajectory cannot be read or parsed, or holds no step to score.' },
  unknown_format: { status: 400, summary: 'The log format could not be detected.' },
  usage: { status: 400, summary: 'Wrong command-line usage.' },
  mixed_tasks: { status: 400, summary: 'A group of runs to rank holds runs of more than one task.' },
  no_forecast_model: { status: 409, summary: 'The request asks for a forecast model the server has not loaded (`"rankModel"` without `--forecast`, `"end"` from a file without an end-of-run model).' },
  forbidden_origin: { status: 403, summary: "A WebSocket upgrade from a web page whose origin is not the server's own nor allowed (`--allow-origin`)." },
  forbidden_host: { status: 403, summary: 'A request for a Host name that a server listening on loopback does not answer (allowed with `--allowed-host`).' },
} as const;

export type ErrorCode = keyof typeof ERROR_CODES;

/** An expected, user-facing failure: printed as one line, never as a stack trace. */
export class SteplensError extends Error {
  readonly code: ErrorCode;
  constructor(code: ErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'SteplensError';
    this.code = code;
  }
  get status(): number {
    return ERROR_CODES[this.code].status;
  }
}

/**
 * True for a {@link SteplensError}, also one made by another copy of this module: the CLI bundle
 * (dist/bin/steplens.js) runs `serve` from dist/src, whose errors are instances of dist/src's class.
 */
export function isSteplensError(x: unknown): x is SteplensError {
  if (x instanceof SteplensError) return true;
  const code: unknown = x instanceof Error && x.name === 'SteplensError' ? (x as { code?: unknown }).code : undefined;
  return typeof code === 'string' && Object.hasOwn(ERROR_CODES, code);
}

/** Errors as values, for code that must not throw on bad input. */
export type Result<T, E = SteplensError> = { ok: true; value: T } | { ok: false; error: E };
export const ok = <T>(value: T): Result<T, never> => ({ ok: true, value });
export const err = <E>(error: E): Result<never, E> => ({ ok: false, error });

/**
 * The one-line message for an error of `util.parseArgs` (a code `ERR_PARSE_ARGS_*`), else undefined. An unknown
 * option is named with the option of `usage` (the command's usage text) one or two letters away, if there is one;
 * Node's own advice for positionals that start with '-' (which ends on an unbalanced quote) is dropped: a
 * mistyped flag is the usual cause.
 */
export function parseArgsMessage(error: unknown, usage = ''): string | undefined {
  const code = error instanceof Error ? (error as { code?: unknown }).code : undefined;
  if (typeof code !== 'string' || !code.startsWith('ERR_PARSE_ARGS')) return undefined;
  const unknown = code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION' ? /^Unknown option '([^']+)'/.exec((error as Error).message)?.[1] : undefined;
  if (unknown === undefined) return (error as Error).message;
  // Node's parseArgs names an unknown long option without its `=value`, a short one by its character (`-=`): the
  // rule's attack, a run of '=' then a line end, never reaches this (a 128 KiB argument of '=' arrives as `-=`).
  // eslint-disable-next-line regexp/no-super-linear-move -- at most one '=' reaches it, from the command line's own arguments
  const name = unknown.replace(/=.*$/, '');
  const known = [...new Set(usage.match(/--[a-z][a-z0-9-]*/g) ?? [])];
  const near = known
    .map((option) => ({ option, d: editDistance(name, option) }))
    .filter(({ d }) => d <= Math.min(2, Math.floor((name.length - 2) / 3)))
    .sort((a, b) => a.d - b.d)[0];
  return `unknown option '${name}'${near ? ` (did you mean ${near.option}?)` : ''}`;
}

/** Levenshtein distance, with a swap of two neighbours counting as one edit. */
function editDistance(a: string, b: string): number {
  const d = Array.from({ length: a.length + 1 }, (_, i) => Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let v = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) v = Math.min(v, d[i - 2]![j - 2]! + 1);
      d[i]![j] = v;
    }
  }
  return d[a.length]![b.length]!;
}
