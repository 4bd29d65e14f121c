/** Patch size, cumulative edit volume and patch churn (PCR). */
import type { Step } from '../types.js';
import { stepFailed } from '../state/failure.js';

function lineCount(text: string | undefined): number {
  if (!text) return 0;
  const lines = text.split('\n');
  return text.endsWith('\n') ? lines.length - 1 : lines.length;
}

/** A hunk header: `@@ -start[,count] +start[,count] @@` (a count left out is 1). */
const HUNK = /^@@ -\d+(?:,(\d+))? \+\d+(?:,(\d+))? @@/;

/**
 * Lines added plus deleted in a unified diff (`+`/`-` lines, file headers excluded). Inside a hunk the header's
 * counts say how many old and new lines follow, so a removed line whose text starts with `--` (`---` in the diff: an
 * RST rule, a SQL comment) or an added one starting with `++` is counted; `---`/`+++` are skipped as file headers
 * only outside a hunk. A `diff ` line ends a hunk whose counts were too large (a cut patch).
 */
export function patchLines(diff: string | undefined): number {
  if (!diff) return 0;
  let n = 0;
  // Old and new lines of the current hunk still to come.
  let old = 0;
  let added = 0;
  for (const line of diff.split('\n')) {
    const hunk = HUNK.exec(line);
    if (hunk) {
      old = hunk[1] === undefined ? 1 : Number(hunk[1]);
      added = hunk[2] === undefined ? 1 : Number(hunk[2]);
      continue;
    }
    if ((old > 0 || added > 0) && !line.startsWith('diff ')) {
      if (line.startsWith('-')) {
        n++;
        old--;
      } else if (line.startsWith('+')) {
        n++;
        added--;
      } else if (!line.startsWith('\\')) {
        // A context line (a blank one may have lost its leading space); `\ No newline at end of file` is neither.
        old--;
        added--;
      }
      continue;
    }
    old = 0;
    added = 0;
    if (line.startsWith('+++') || line.startsWith('---')) continue;
    if (line.startsWith('+') || line.startsWith('-')) n++;
  }
  return n;
}

const HEREDOC = /<<-?\s*(['"]?)(\w+)\1/;
const REDIRECT_TO_FILE = /(?:^|[^<>&\d])>>?\s*[^\s|&;<>]+/;

/** Lines of heredoc bodies that a shell command redirects into a file. */
function heredocLines(command: string): number {
  const lines = command.split('\n');
  let n = 0;
  for (let i = 0; i < lines.length; i++) {
    const head = lines[i]!;
    const m = HEREDOC.exec(head);
    if (!m) continue;
    const end = lines.findIndex((l, j) => j > i && l.trim() === m[2]);
    const stop = end < 0 ? lines.length : end;
    const withoutMarker = head.replace(HEREDOC, ' ');
    if (REDIRECT_TO_FILE.test(withoutMarker) || /\btee\b/.test(withoutMarker)) n += stop - i - 1;
    i = stop;
  }
  return n;
}

/**
 * Lines one step adds plus deletes. Editor edits: str_replace old + new lines,
 * insert/replace_lines new lines (replace_lines also the replaced range),
 * create/write the file text. Shell commands: only heredoc bodies redirected
 * into a file (`cat <<'EOF' > f`) are measured; `sed -i`, scripts that write
 * files and `undo` contribute 0, so shell-only agents' volume is a lower bound. An edit the editor refused (the
 * step failed: SWE-agent 0.x's linter, a str_replace that matched nothing) changed no line: 0.
 */
export function stepEditVolume(step: Step): number {
  const a = step.action;
  if (a.kind === 'edit') {
    if (stepFailed(step)) return 0;
    switch (a.op) {
      case 'str_replace':
        return lineCount(a.old) + lineCount(a.new);
      case 'insert':
        return lineCount(a.new);
      case 'replace_lines':
        return lineCount(a.new) + (a.range ? a.range[1] - a.range[0] + 1 : 0);
      case 'create':
      case 'write':
        return lineCount(a.text ?? a.new);
      default:
        return 0;
    }
  }
  if (a.kind === 'shell') {
    return heredocLines(a.command);
  }
  return 0;
}

/** Cumulative edit volume of a trajectory. */
export function editVolume(steps: readonly Step[]): number {
  return steps.reduce((s, step) => s + stepEditVolume(step), 0);
}

/**
 * PCR = 1 − |final patch| / cumulative edit volume, clamped to [0, 1];
 * 0 when there were no (measurable) edits (method.md section 9, choice).
 */
export function patchChurn(patch: number, volume: number): number {
  if (volume <= 0) return 0;
  return Math.min(1, Math.max(0, 1 - patch / volume));
}
