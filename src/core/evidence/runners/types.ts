/**
 * What a test runner's output says, read from one observation (issue 26): counts of
 * passed, failed and erroring tests, and the build's status where the runner prints one.
 * One parser per runner family (this folder); `test-results.ts` merges them.
 */

/** The counts one observation reports; `build` only where the runner prints a build status. */
export interface TestRun {
  passed: number;
  failed: number;
  /** Tests that errored (collection errors, setup errors, build failures of a test package). */
  errors: number;
  build?: 'success' | 'failure';
}

/** A runner family's parser: null when the text holds none of its summaries. */
export interface RunnerParser {
  family: string;
  /** The {@link LINE} flags (output-lines.ts) of the lines its summaries are made of: it is not run on output without one. */
  needs: number;
  /**
   * `summaryFrom`: where the scan (output-lines.ts `ScanAt`) saw the first line its summaries can start on, 0 when
   * not known; only pytest's reader is given one (its pattern is the one tried at every position).
   */
  parse(text: string, summaryFrom?: number): TestRun | null;
}

/** Integer value of a capture, 0 when absent. */
export const num = (s: string | undefined): number => (s === undefined ? 0 : Number(s));
