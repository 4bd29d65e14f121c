/**
 * Label snapshots of real trajectories, one per log format: `t stage kind tool target`
 * per step, in __snapshots__/<name>.txt. Each file was read by a person for sense;
 * the comment above each test says what was checked. Update with `-u` only after reading the diff.
 */
import { describe, expect, it } from 'vitest';
import { fileURLToPath } from 'node:url';
import { CORPUS, renderLabels, stepsOf } from './render.js';

const snap = (name: string) => `./__snapshots__/${name}.txt`;

describe('label snapshots (read for sense)', () => {
  // read 2026-11-30: view of /testbed with a range is a listing (was a read); repro.py E before the edit at t13, V after;
  // the t18 re-read of repro.py is V (own file), undo of repro.py V rule 7, rm repro.py O, submit O.
  it('SWE-agent 1.1: facebookresearch__hydra-1915 gpt-5', async () => {
    const steps = stepsOf(`${CORPUS}christsakm__Trajectories/GOOD_EXAMPLES/facebookresearch__hydra-1915/trace_01_gpt-5-2025-08-07/facebookresearch__hydra-1915.traj`);
    await expect(renderLabels(steps)).toMatchFileSnapshot(snap('swe-agent-1.1-hydra-1915-gpt5'));
  });

  // read 2026-11-30: search_dir/open/scroll_down E; ACI edit of Version.java I; the test file it creates under
  // src/test is V (rule 7, after the edit); gradlew/mvn test V run_test; `chmod +x run_tests.sh && ./run_tests.sh` is the run (V), not O.
  it('SWE-agent 0.x: fasterxml__jackson-core-1142 gpt-4o', async () => {
    const steps = stepsOf(`${CORPUS}multi-swe-bench__experiments/evaluation/java/verified/20240825_SWE-agent_gpt-4o-2024-05-13/trajs/fasterxml__jackson-core-1142.traj`);
    await expect(renderLabels(steps)).toMatchFileSnapshot(snap('swe-agent-0.x-jackson-core-1142-gpt4o'));
  });

  // read 2026-11-30: reproduce_issue.py heredoc E, its run E; sed -i on separable.py I; test_separable.py appended after
  // the edit is V rule 7; pytest V; `git checkout pyproject.toml` O; git diff V; the COMPLETE_TASK... submit O.
  it('mini-swe-agent-1: astropy__astropy-12907 gemini-3-pro', async () => {
    const steps = stepsOf(`${CORPUS}gruckion__mini-swe-agent/swebench_results/20251118_gemini-3-pro-74pct/trajs/astropy__astropy-12907/astropy__astropy-12907.traj.json`);
    await expect(renderLabels(steps)).toMatchFileSnapshot(snap('mini-swe-agent-1-astropy-12907-gemini'));
  });

  // read 2026-11-30: the fix is applied by `cat > fix_cstack.py <<EOF ... python3 fix_cstack.py` at t15: I on
  // separable.py (was E, and the whole run stayed E); later reads of separable.py V, scratch scripts V; pip installs O;
  // `git diff > patch.txt` O, `cat patch.txt` V.
  it('mini-swe-agent-1.1: astropy__astropy-12907 deepseek-chat', async () => {
    const steps = stepsOf(`${CORPUS}SWE-agent__mini-swe-agent__pull-refs/output/deepseek_bench1/astropy__astropy-12907/astropy__astropy-12907.traj.json`);
    await expect(renderLabels(steps)).toMatchFileSnapshot(snap('mini-swe-agent-1.1-astropy-12907-deepseek'));
  });

  // read 2026-11-30: ls/view of parser.c E; str_replace I; re-view of the edited parser.c V; test.c/test.pony written
  // to /workspace (outside the repo, not the repo root) V rule 7; make V; think O; finish O.
  it('OpenHands output.jsonl: ponylang__ponyc-4595 (instance 0)', async () => {
    const steps = stepsOf(`${CORPUS}OpenHands__OpenHands/evaluation/benchmarks/multi_swe_bench/examples/output.jsonl`, 0);
    await expect(renderLabels(steps)).toMatchFileSnapshot(snap('openhands-output-ponyc-4595'));
  });

  // read 2026-11-30: reproduce*.py at the repo root created/edited/run E before the edit at t21 (its view at t5 V: own
  // file); find -exec grep E; str_replace of fields/__init__.py I; reproduce3.py run V; finish O.
  it('OpenHands completion log: django__django-11999 Claude-3.5-Sonnet', async () => {
    const steps = stepsOf(
      `${CORPUS}gsmoon97__swe-agent-eval/evaluation/python/verified/20250329_OpenHands_Claude-3.5-Sonnet(Oct)/trajs/django__django-11999/Claude-3.5-Sonnet(Oct)-1743406483.8866951.json`,
    );
    await expect(renderLabels(steps)).toMatchFileSnapshot(snap('openhands-completions-django-11999-claude'));
  });

  // read 2026-11-30: fake-LLM golden; mkdir O, files under test_dir/ are test files (rule 7, E before any source edit),
  // hello.txt written at the root is a scratch notes file (O), cat of it V (own file), mark_task_complete O.
  it('ATIF: terminus-2 hello-world-context-summarization', async () => {
    const steps = stepsOf(`${CORPUS}sachiny0106__Xelron_harbor-copy/tests/golden/terminus_2/hello-world-context-summarization.trajectory.json`);
    await expect(renderLabels(steps)).toMatchFileSnapshot(snap('atif-terminus2-context-summarization'));
  });

  // read 2026-11-30: fixture = `steplens convert` of christsakm .../getmoto__moto-6510/trace_03_qwen3-coder.../getmoto__moto-6510.traj;
  // labels equal the .traj's own: reproduce_issue.py E then V after the three models.py edits; root-level test_*.py
  // scratch scripts created and run V; pytest V; rm of scratch O; submit O.
  it('steplens (from convert): getmoto__moto-6510 qwen3-coder', async () => {
    const steps = stepsOf(fileURLToPath(new URL('./fixtures/moto-6510-qwen3.steplens.jsonl', import.meta.url)));
    const original = stepsOf(`${CORPUS}christsakm__Trajectories/GOOD_EXAMPLES/getmoto__moto-6510/trace_03_qwen3-coder-480b-a35b-instruct/getmoto__moto-6510.traj`);
    expect(renderLabels(steps)).toBe(renderLabels(original));
    await expect(renderLabels(steps)).toMatchFileSnapshot(snap('steplens-moto-6510-qwen3'));
  });
});
