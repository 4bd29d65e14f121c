/** The refusal a step message gets when it carries a raw log event its format's stream parser could not use. */
import type { Diagnostic, FormatName } from '../formats/types.js';

/** Where one raw event of each format comes from in its log (proto/README.md, "Raw events"). */
const ONE_EVENT: Partial<Record<FormatName, string>> = {
  'mini-swe-agent': "one entry of the .traj.json's `messages`",
  'swe-agent': "one entry of the .traj's `trajectory`",
  openhands: 'one event of the log (`history[i]`, an output.jsonl line) or one chat message of a completion log',
  atif: "one entry of the trajectory's `steps`",
};

/** The refusal of a raw event its format's parser could not use: what the parser said, and what one event is. */
export function unusable(format: FormatName, diagnostics: readonly Diagnostic[]): string {
  const why = diagnostics.map((d) => d.message.replace(/; (ignored|skipped)$/, '')).join('; ');
  return `step: not a usable ${format} event (${why}): a step message carries ${ONE_EVENT[format] ?? 'one event of the log'}`;
}
