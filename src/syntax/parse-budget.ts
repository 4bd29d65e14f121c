/**
 * A parse budget counted in tree-sitter's own operations, not in time. tree-sitter 0.25 asks a parse's progress
 * callback once every {@link OPS_PER_CHECK} parse operations (parser.c: OP_COUNT_PER_PARSER_TIMEOUT_CHECK, counted
 * from 0 at each parse; the final tree's balancing counts a large compression as more than one), so counting the
 * calls halts a given text at the same point on every machine and under any load. The wall-clock deadline this
 * replaces halted a real ~20 ms parse on a loaded machine (stop 64): the text's scopes or commands, so its labels
 * and scores, then depended on the machine (docs/reliability.md, T94).
 */
export const OPS_PER_CHECK = 100;

/**
 * CPU milliseconds of the parsing thread after which a parse is halted whatever its operations. A check of error
 * recovery can cost 100 times one of a real parse (about 45 µs on real files; 4.5 ms on lines of dots in Python,
 * 2.3 ms on 16 KiB of `)` in bash): no operation count both lets every real file through and bounds those (127 KiB of
 * dots ran 16.5 s within the Python budget). The costliest real parse measured took 52 ms of CPU (a 122 KB test module
 * of CPython, at load 16): only a text whose operations cost many times a real one's reaches this. CPU time, not
 * wall-clock, so that a loaded machine does not.
 */
export const PARSE_CPU_BACKSTOP_MS = 200;

/**
 * CPU of this thread where Node can tell it (`process.threadCpuUsage`, Node 22.15 / 23.9 on); on Node 20 the whole
 * process's, which the other threads (scoring workers, the collector) also advance: there the backstop can come
 * sooner on a busy many-core server, still never before {@link PARSE_CPU_BACKSTOP_MS} of wall-clock.
 */
const threadCpuUsage = (process as { threadCpuUsage?: () => NodeJS.CpuUsage }).threadCpuUsage?.bind(process);
const cpuMs = (): number => {
  const { user, system } = threadCpuUsage?.() ?? process.cpuUsage();
  return (user + system) / 1000;
};

/**
 * A progress callback that halts the parse once it has taken more than `ops` operations (0: at its first check), or
 * {@link PARSE_CPU_BACKSTOP_MS} of CPU. The CPU clock (a system call) is read only once as much wall-clock has passed,
 * which this thread's CPU time cannot outrun: a real parse never reads it on a quiet machine.
 */
export function parseBudget(ops: number): () => boolean {
  let checks = Math.floor(ops / OPS_PER_CHECK);
  const since = performance.now();
  const cpuSince = cpuMs();
  return () => --checks < 0 || (performance.now() - since >= PARSE_CPU_BACKSTOP_MS && cpuMs() - cpuSince >= PARSE_CPU_BACKSTOP_MS);
}
