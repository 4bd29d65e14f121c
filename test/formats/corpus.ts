/** Paths into the shared corpus of real trajectories (../shared/corpus, see SOURCES.md). */
import { readFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { CORPUS_DIR } from '../fixtures/corpus.js';

export const CORPUS = pathToFileURL(`${CORPUS_DIR}/`);

/** The text of a corpus file, by its path under shared/corpus/. */
export function corpusText(rel: string): string {
  return readFileSync(new URL(rel, CORPUS), 'utf8');
}

/** The parsed JSON of a corpus file (JSON Lines files: an array of their records). */
export function corpusJson(rel: string): unknown {
  const text = corpusText(rel);
  if (rel.endsWith('.jsonl'))
    return text
      .split('\n')
      .filter((l) => l.trim() !== '')
      .map((l) => JSON.parse(l) as unknown);
  return JSON.parse(text) as unknown;
}

const CM = 'christsakm__Trajectories/';
const MSB = 'multi-swe-bench__experiments/evaluation/java/verified/20240825_SWE-agent_';
const GR = 'gruckion__mini-swe-agent/swebench_results/20251118_gemini-3-pro-74pct/trajs/';
const PR = 'SWE-agent__mini-swe-agent__pull-refs/';
const OHC = 'gsmoon97__swe-agent-eval/evaluation/python/verified/20250329_OpenHands_Claude-3.5-Sonnet(Oct)/trajs/';
const HB = 'sachiny0106__Xelron_harbor-copy/';

/**
 * Every trajectory file of SOURCES.md with its format and step count(s) (one per instance for an
 * `output.jsonl`). Counts follow method.md section 1; where SOURCES.md's "steps" column counts
 * differently, the comment says why.
 */
export const TRAJECTORIES: ReadonlyArray<{ file: string; format: string; steps: number[] }> = [
  // SWE-agent 1.1: one step per trajectory[] entry (SOURCES #1-14).
  { file: `${CM}GOOD_EXAMPLES/getmoto__moto-6510/trace_01_gpt-5-2025-08-07/getmoto__moto-6510.traj`, format: 'swe-agent', steps: [23] },
  { file: `${CM}GOOD_EXAMPLES/getmoto__moto-6510/trace_02_kimi-k2-instruct-0905/getmoto__moto-6510.traj`, format: 'swe-agent', steps: [11] },
  { file: `${CM}GOOD_EXAMPLES/getmoto__moto-6510/trace_03_qwen3-coder-480b-a35b-instruct/getmoto__moto-6510.traj`, format: 'swe-agent', steps: [20] },
  { file: `${CM}GOOD_EXAMPLES/facebookresearch__hydra-1915/trace_01_gpt-5-2025-08-07/facebookresearch__hydra-1915.traj`, format: 'swe-agent', steps: [24] },
  { file: `${CM}GOOD_EXAMPLES/facebookresearch__hydra-1915/trace_02_kimi-k2-instruct-0905/facebookresearch__hydra-1915.traj`, format: 'swe-agent', steps: [34] },
  { file: `${CM}GOOD_EXAMPLES/facebookresearch__hydra-1915/trace_03_qwen3-coder-480b-a35b-instruct/facebookresearch__hydra-1915.traj`, format: 'swe-agent', steps: [22] },
  { file: `${CM}GOOD_EXAMPLES/bokeh__bokeh-13370/trace_01_gpt-5-2025-08-07/bokeh__bokeh-13370.traj`, format: 'swe-agent', steps: [29] },
  { file: `${CM}GOOD_EXAMPLES/bokeh__bokeh-13370/trace_02_kimi-k2-instruct-0905/bokeh__bokeh-13370.traj`, format: 'swe-agent', steps: [20] },
  { file: `${CM}GOOD_EXAMPLES/bokeh__bokeh-13370/trace_04_claude-sonnet-4-20250514/bokeh__bokeh-13370.traj`, format: 'swe-agent', steps: [36] },
  { file: `${CM}TODO/dask__dask-8685/trace_01_gpt-5-2025-08-07/dask__dask-8685.traj`, format: 'swe-agent', steps: [27] },
  { file: `${CM}TODO/dask__dask-8685/trace_02_kimi-k2-instruct-0905/dask__dask-8685.traj`, format: 'swe-agent', steps: [14] },
  { file: `${CM}TODO/dask__dask-8685/trace_03_qwen3-coder-480b-a35b-instruct/dask__dask-8685.traj`, format: 'swe-agent', steps: [28] },
  { file: `${CM}DONE/getmoto__moto-4799/trace_01_gpt-5-2025-08-07/getmoto__moto-4799.traj`, format: 'swe-agent', steps: [23] },
  { file: `${CM}DONE/getmoto__moto-4799/trace_02_kimi-k2-instruct-0905/getmoto__moto-4799.traj`, format: 'swe-agent', steps: [21] },
  // SWE-agent 0.x (SOURCES #15-29).
  { file: `${MSB}gpt-4o-2024-05-13/trajs/fasterxml__jackson-databind-3701.traj`, format: 'swe-agent', steps: [13] },
  { file: `${MSB}gpt-4o-2024-05-13/trajs/fasterxml__jackson-databind-4486.traj`, format: 'swe-agent', steps: [17] },
  { file: `${MSB}gpt-4o-2024-05-13/trajs/fasterxml__jackson-core-1142.traj`, format: 'swe-agent', steps: [12] },
  { file: `${MSB}gpt-4o-mini-2024-07-18/trajs/fasterxml__jackson-databind-3701.traj`, format: 'swe-agent', steps: [23] },
  { file: `${MSB}gpt-4o-mini-2024-07-18/trajs/fasterxml__jackson-databind-4486.traj`, format: 'swe-agent', steps: [19] },
  { file: `${MSB}gpt-4o-mini-2024-07-18/trajs/fasterxml__jackson-core-1142.traj`, format: 'swe-agent', steps: [11] },
  { file: `${MSB}deepseek-coder-v2/trajs/fasterxml__jackson-databind-3701.traj`, format: 'swe-agent', steps: [4] },
  { file: `${MSB}deepseek-coder-v2/trajs/fasterxml__jackson-databind-4486.traj`, format: 'swe-agent', steps: [7] },
  { file: `${MSB}deepseek-coder-v2/trajs/fasterxml__jackson-core-1142.traj`, format: 'swe-agent', steps: [7] },
  { file: `${MSB}deepseek-chat-v2/trajs/fasterxml__jackson-databind-3701.traj`, format: 'swe-agent', steps: [10] },
  { file: `${MSB}deepseek-chat-v2/trajs/fasterxml__jackson-databind-4486.traj`, format: 'swe-agent', steps: [7] },
  { file: `${MSB}deepseek-chat-v2/trajs/fasterxml__jackson-core-1142.traj`, format: 'swe-agent', steps: [6] },
  { file: `${MSB}doubao-pro-128k/trajs/fasterxml__jackson-databind-3701.traj`, format: 'swe-agent', steps: [8] },
  { file: `${MSB}doubao-pro-128k/trajs/fasterxml__jackson-databind-4486.traj`, format: 'swe-agent', steps: [12] },
  { file: `${MSB}doubao-pro-128k/trajs/fasterxml__jackson-core-1142.traj`, format: 'swe-agent', steps: [38] },
  // mini-swe-agent-1: one step per assistant turn (SOURCES #30-35, RFC example).
  { file: `${GR}astropy__astropy-12907/astropy__astropy-12907.traj.json`, format: 'mini-swe-agent', steps: [20] },
  { file: `${GR}astropy__astropy-14182/astropy__astropy-14182.traj.json`, format: 'mini-swe-agent', steps: [25] },
  { file: `${GR}django__django-10914/django__django-10914.traj.json`, format: 'mini-swe-agent', steps: [48] },
  { file: `${GR}django__django-11099/django__django-11099.traj.json`, format: 'mini-swe-agent', steps: [21] },
  { file: `${GR}django__django-11999/django__django-11999.traj.json`, format: 'mini-swe-agent', steps: [33] },
  { file: `${GR}django__django-13401/django__django-13401.traj.json`, format: 'mini-swe-agent', steps: [27] },
  { file: `${HB}docs/rfcs/0001-trajectory-format/mini-swe-agent-trajectory.json`, format: 'mini-swe-agent', steps: [3] },
  // mini-swe-agent-1.1: one step per tool call (SOURCES #36-49; #48 is a Timeout run with 0 turns).
  { file: `${PR}output/deepseek_bench1/astropy__astropy-12907/astropy__astropy-12907.traj.json`, format: 'mini-swe-agent', steps: [36] },
  { file: `${PR}output/deepseek_bench1/astropy__astropy-14182/astropy__astropy-14182.traj.json`, format: 'mini-swe-agent', steps: [98] },
  { file: `${PR}output/deepseek_bench1/django__django-10914/django__django-10914.traj.json`, format: 'mini-swe-agent', steps: [48] },
  { file: `${PR}output/deepseek_bench1/django__django-11099/django__django-11099.traj.json`, format: 'mini-swe-agent', steps: [42] },
  { file: `${PR}output/deepseek_bench1/django__django-11999/django__django-11999.traj.json`, format: 'mini-swe-agent', steps: [59] },
  { file: `${PR}output/deepseek_bench1/django__django-13401/django__django-13401.traj.json`, format: 'mini-swe-agent', steps: [80] },
  { file: `${PR}output/deepseek_chat_dev/pylint-dev__astroid-1196/pylint-dev__astroid-1196.traj.json`, format: 'mini-swe-agent', steps: [62] },
  { file: `${PR}output/deepseek_chat_dev_rerun/pylint-dev__astroid-1196/pylint-dev__astroid-1196.traj.json`, format: 'mini-swe-agent', steps: [82] },
  { file: `${PR}output/deepseek_lite_dev_noparallel/pylint-dev__astroid-1196/pylint-dev__astroid-1196.traj.json`, format: 'mini-swe-agent', steps: [79] },
  { file: `${PR}output/deepseek_chat_dev/pylint-dev__astroid-1866/pylint-dev__astroid-1866.traj.json`, format: 'mini-swe-agent', steps: [75] },
  { file: `${PR}output/deepseek_chat_dev_rerun/pylint-dev__astroid-1866/pylint-dev__astroid-1866.traj.json`, format: 'mini-swe-agent', steps: [102] },
  { file: `${PR}output/deepseek_lite_dev_noparallel/pylint-dev__astroid-1866/pylint-dev__astroid-1866.traj.json`, format: 'mini-swe-agent', steps: [94] },
  { file: `${PR}output/deepseek_reasoner_dev/pylint-dev__astroid-1196/pylint-dev__astroid-1196.traj.json`, format: 'mini-swe-agent', steps: [0] },
  { file: `${PR}eval/example_trajectories/astropy__astropy-12907.traj.json`, format: 'mini-swe-agent', steps: [64] },
  // OpenHands completion logs (SOURCES #50-55): SOURCES says "N tool calls in history (+1 in final
  // response)"; method.md counts the final response's tool call as a step too, so N + 1.
  { file: `${OHC}astropy__astropy-12907/Claude-3.5-Sonnet(Oct)-1743405761.3279748.json`, format: 'openhands', steps: [49] },
  { file: `${OHC}astropy__astropy-14182/Claude-3.5-Sonnet(Oct)-1743405537.2130716.json`, format: 'openhands', steps: [50] },
  { file: `${OHC}django__django-10914/Claude-3.5-Sonnet(Oct)-1743405477.1413963.json`, format: 'openhands', steps: [22] },
  { file: `${OHC}django__django-11099/Claude-3.5-Sonnet(Oct)-1743405661.1259937.json`, format: 'openhands', steps: [29] },
  { file: `${OHC}django__django-11999/Claude-3.5-Sonnet(Oct)-1743406483.8866951.json`, format: 'openhands', steps: [26] },
  { file: `${OHC}django__django-13401/Claude-3.5-Sonnet(Oct)-1743404604.7377915.json`, format: 'openhands', steps: [44] },
  // OpenHands event streams: "agent actions" = agent action events minus the `system` prompt event.
  { file: 'OpenHands__OpenHands/evaluation/benchmarks/multi_swe_bench/examples/output.jsonl', format: 'openhands', steps: [23, 33, 49] },
  { file: 'OpenHands__OpenHands/tests/unit/resolver/mock_output/output.jsonl', format: 'openhands', steps: [4, 22] },
  { file: 'OpenHands__OpenHands/tests/runtime/trajs/basic.json', format: 'openhands', steps: [2] },
  { file: `${HB}docs/rfcs/0001-trajectory-format/openhands_trajectory.json`, format: 'openhands', steps: [2] },
  // ATIF: one step per tool call of each agent step, an agent step without calls is one step.
  { file: `${HB}tests/golden/openhands/hello-world.trajectory.json`, format: 'atif', steps: [2] },
  { file: `${HB}tests/golden/terminus_2/hello-world-context-summarization.trajectory.json`, format: 'atif', steps: [7] },
  // "4 agent, 3 tool calls": the parse-error agent step has no call and is one step: 1 + 3.
  { file: `${HB}tests/golden/terminus_2/hello-world-invalid-json.trajectory.json`, format: 'atif', steps: [4] },
  // SOURCES says "9 steps (3 agent, 5 tool calls)", counting every ATIF step; by method.md the agent
  // steps give 1 (no call) + 4 + 1 = 6, which is also the file's own final_metrics.total_steps.
  { file: 'OpenAgentsInc__openagents/results/trajectories/regex-log/20251211-161750-ba4ddb16/trajectory.json', format: 'atif', steps: [6] },
];

/** Corpus files that are not trajectories (reports, results, task records): detection rejects them. */
export const NON_TRAJECTORIES: readonly string[] = [
  `${PR}deepseek__deepseek-chat.deepseek_chat_dev.json`,
  `${PR}deepseek__deepseek-chat.deepseek_chat_test_1-100.json`,
  `${PR}logs/run_evaluation/deepseek_bench1_eval/deepseek__deepseek-chat/astropy__astropy-12907/report.json`,
  `${CM}GOOD_EXAMPLES/getmoto__moto-6510/instance_data.json`,
  `${MSB}gpt-4o-2024-05-13/results/results.json`,
  'gruckion__mini-swe-agent/swebench_results/20251118_gemini-3-pro-74pct/results_summary.json',
  'gsmoon97__swe-agent-eval/evaluation/python/verified/20250329_OpenHands_Claude-3.5-Sonnet(Oct)/results/results.json',
  'OpenAgentsInc__openagents/results/trajectories/regex-log/20251211-161750-ba4ddb16/metrics.json',
];
