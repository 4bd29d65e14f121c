/** What `steplens rank` prints without `--json`: a table best first (`=` marks a tie). */
import type { AskedBasis, RankBasis, Ranking } from '../core/rank/rank.js';
import type { ReferenceInfo } from '../core/types.js';
import { shortRunNames } from './run-names.js';
import { MIN_RANKED_RUNS_AFTER_SKIP } from './rank-logs.js';
import { renderTable } from './table.js';

const BASIS: Record<RankBasis, string> = {
  pPass: 'the forecast P(pass) of each run',
  pta: "the composite against the task's PTA",
  consensus: 'the consensus of the group: agreement with the other runs on where to edit (files and scopes), ties by the composite; no run known to pass, no reference',
  vote: 'the vote of the group: how many runs made the same final patch (normalised), ties by the composite; no run known to pass, no reference',
  'reference-free': 'the composite, reference-free (no forecast model, no usable PTA of the task)',
  mixed: 'the composite, each run against its own reference (they differ: compare with care)',
};

const referenceText = (r: ReferenceInfo): string => (r.kind === 'pta' ? `PTA v${r.version ?? '?'}` : 'prior');
const fixed = (x: number, digits: number): string => x.toFixed(digits);

/** Why every run has one vote or consensus, where the value says it. */
function flatWhy(r: Ranking): string {
  const v = r.runs[0]!.score;
  if (r.by === 'vote') return v === 0 ? ' (no run changed a source)' : v === 1 ? ' (no two runs made the same final patch)' : '';
  if (r.runs.length === 2) return ' (two runs always share one agreement)';
  return v === 0 ? ' (no two runs edited a common location)' : '';
}

/** The human table. */
export function rankText(r: Ranking, opts: { forecast: boolean; asked?: AskedBasis | undefined; missing?: string | undefined; endModel?: boolean }): string {
  const showPPass = r.runs.some((x) => x.pPass !== undefined);
  const header = ['rank', 'run', r.by === 'consensus' || r.by === 'vote' ? r.by : 'score', 'composite', ...(showPPass ? ['pPass'] : []), 'reference', 'steps'];
  // Whole paths made the table as wide as the folders were deep; --json keeps them.
  const names = shortRunNames([...r.runs, ...r.unranked].map((x) => x.id));
  const name = (id: string): string => names.get(id) ?? id;
  // One run is no ranking (`rank --lenient` refuses to leave one; audit23): its scores, no rank 1 of 1.
  const alone = r.oneRun === true;
  const rows = r.runs.map((x) => [
    alone ? '-' : `${x.rank}${x.tied ? '=' : ''}`,
    name(x.id),
    r.by === 'pPass' || r.by === 'consensus' ? fixed(x.score, 3) : r.by === 'vote' ? String(x.score) : fixed(x.score, 1),
    fixed(x.composite, 1),
    ...(showPPass ? [x.pPass === undefined ? '-' : fixed(x.pPass, 3)] : []),
    referenceText(x.reference),
    x.steps,
  ]);
  const ties = r.runs.some((x) => x.tied) ? '\n= tied: equal scores, no order between them' : '';
  const note = opts.forecast && r.by !== 'pPass' ? '\n(the forecast model applied to no run: ordered by the next basis)' : '';
  // An asked basis yields to a forecast or a PTA that every run has (docs/rank.md): said, not left to the header.
  const yielded =
    opts.asked !== undefined && r.by !== opts.asked
      ? `\n(--basis ${opts.asked} orders runs without a forecast model or a PTA: every run here has ${r.by === 'pPass' ? 'a pPass' : 'a PTA'}, so not by ${opts.asked})`
      : '';
  // The header says "ties by the composite"; when the basis ties every run, the composite is all that ordered them.
  const flat =
    r.basisFlat === true && r.runs.length > 0
      ? `\n(the ${r.by} decided nothing: every run has ${r.by} ${r.by === 'vote' ? String(r.runs[0]!.score) : fixed(r.runs[0]!.score, 3)}${flatWhy(r)}, so the order is the composite's alone)`
      : '';
  const left = r.unranked.map((x) => `\nnot ranked: ${name(x.id)} (${x.reason})`).join('');
  const missing = opts.missing !== undefined ? `\nnote: ${opts.missing}` : '';
  const tail = `${ties}${flat}${note}${yielded}${missing}${left}`;
  const basis = r.by === 'pPass' && opts.endModel === true ? `${BASIS.pPass} by the end-of-run model (--rank-model end)` : BASIS[r.by];
  const what = alone ? `1 run, so no ranking (a ranking needs ${MIN_RANKED_RUNS_AFTER_SKIP} runs); scored by ${basis}` : `${r.runs.length} runs ordered by ${basis}`;
  return `${r.task ?? 'runs of several tasks'}: ${what}\n\n${renderTable(header, rows)}${tail}${tail ? '\n' : ''}`;
}
