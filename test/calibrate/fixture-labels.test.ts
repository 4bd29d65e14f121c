/**
 * The scored runs `test/fixtures/early-stop-runs.jsonl.gz` are the calibration runs (not in the repository) as the
 * labeler read them when the file was written; `DEFAULT_POLICY` is replayed on them. default-policy.test.ts checks
 * its corpus runs against a fresh scoring, but a label change that only the calibration sources show went unseen:
 * stop 41 read mini-swe-agent 1.1's FormatError turns, the file kept the old labels, and the shipped `noAction 2`
 * stop went on passing its test while it stopped 16 of gpt-5-mini's 18 passing runs. The excerpts below are real
 * runs of the three calibration sources (test/fixtures/README.md); their labels are pinned here as of the last
 * regeneration of the scored runs. The bundled forecaster (data/forecast.json) is trained on the same runs and was
 * just as stale (retrained in stop 42), so the message names it too.
 */
import { gunzipSync } from 'node:zlib';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';
import { parseInstancesText } from '../../src/formats/index.js';
import { renderLabels } from '../snapshots/render.js';

const EXCERPTS = [
  'coder__sympy__sympy-13971.traj.gz',
  'mini-1.1-format-errors.traj.json',
  'swe-agent-0__django__django-11564.traj.gz',
  'swe-agent-0__django__django-16046.traj.gz',
  'swe-agent-0__django__django-13401.traj.gz',
];

function labels(name: string): string {
  const path = fileURLToPath(new URL(`../fixtures/${name}`, import.meta.url));
  const raw = readFileSync(path);
  const text = (name.endsWith('.gz') ? gunzipSync(raw) : raw).toString('utf8');
  const r = parseInstancesText(text, 'auto', path);
  if (!r.ok || r.value[0] === undefined) throw new Error(`cannot parse ${name}`);
  return `# ${name}\n${renderLabels(r.value[0].steps, { failed: true })}`;
}

it('the labels of the calibration sources are those the scored runs were written with', async () => {
  await expect(
    EXCERPTS.map(labels).join(''),
    'the labeler now reads these calibration-source runs differently: re-score test/fixtures/early-stop-runs.jsonl.gz ' +
      '(command in test/fixtures/README.md), rerun the calibrate tests and the figures docs/early-stop.md takes from it, ' +
      'retrain the bundled forecaster (scripts/train-bundled-forecast.sh; docs/forecast.md quotes its printout), ' +
      'then update this snapshot with `npx vitest run test/calibrate/fixture-labels.test.ts --update`',
  ).toMatchFileSnapshot('./__snapshots__/early-stop-fixture-labels.txt');
});
