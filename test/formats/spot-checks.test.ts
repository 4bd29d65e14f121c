import { describe, expect, it } from 'vitest';
import { parseInstancesText, parseTrajectoryText, type ParseResult } from '../../src/formats/index.js';
import { corpusText } from './corpus.js';

function parse(file: string): ParseResult {
  const r = parseTrajectoryText(corpusText(file), 'auto', file);
  if (!r.ok) throw r.error;
  return r.value;
}

describe('SWE-agent', () => {
  const r = parse('christsakm__Trajectories/GOOD_EXAMPLES/getmoto__moto-6510/trace_01_gpt-5-2025-08-07/getmoto__moto-6510.traj');
  it('1.1 moto-6510 step 3 views moto/scheduler/responses.py', () => {
    expect(r.steps[3]).toMatchObject({ t: 3, tool: 'str_replace_editor', action: { kind: 'view', path: '/testbed/moto/scheduler/responses.py' }, cwd: '/testbed' });
    expect(r.steps[3]?.id).toMatch(/^call_/);
  });
  it('1.1 turns without a tool call are `none` steps; submit is finish', () => {
    expect(r.steps[19]).toMatchObject({ tool: '', action: { kind: 'none' } });
    expect(r.steps[19]?.thought).toMatch(/^Plan:/);
    expect(r.steps[22]).toMatchObject({ tool: 'submit', action: { kind: 'finish' } });
  });
  it('reads meta from info, replay_config and environment', () => {
    expect(r.meta).toMatchObject({ task: 'getmoto__moto-6510', model: 'gpt-5-2025-08-07', agent: 'swe-agent 1.1.0', exitStatus: 'submitted' });
    expect(r.meta.patch).toMatch(/^diff --git a\/moto\/scheduler\/models.py/);
  });

  const old = parse('multi-swe-bench__experiments/evaluation/java/verified/20240825_SWE-agent_gpt-4o-2024-05-13/trajs/fasterxml__jackson-databind-3701.traj');
  const nodeCursor = '/fasterxml__jackson-databind/src/main/java/com/fasterxml/jackson/databind/node/NodeCursor.java';
  it('0.x ACI: find_file is a search, open a view of the shown window', () => {
    expect(old.steps[0]?.action).toEqual({ kind: 'search', query: 'NodeCursor.java', path: 'src' });
    expect(old.steps[1]?.action).toEqual({ kind: 'view', path: nodeCursor, range: [134, 233] });
  });
  it('0.x ACI: edit a:b is replace_lines on the open file from `state`', () => {
    expect(old.steps[2]).toMatchObject({ tool: 'edit', action: { kind: 'edit', op: 'replace_lines', path: nodeCursor, range: [198, 198], new: '            _contents = n.fields();' } });
    expect(old.steps[3]?.action).toEqual({ kind: 'edit', op: 'create', path: 'src/test/java/com/fasterxml/jackson/databind/node/CustomJsonNodeTest.java', text: '' });
    expect(old.steps[5]?.action).toEqual({ kind: 'shell', command: './gradlew test --tests com.fasterxml.jackson.databind.node.CustomJsonNodeTest' });
    expect(old.steps[12]?.action.kind).toBe('finish');
  });
});

describe('mini-swe-agent', () => {
  it('v1: command from the bash block, exit code from <returncode>, tokens from the response usage', () => {
    const r = parse('gruckion__mini-swe-agent/swebench_results/20251118_gemini-3-pro-74pct/trajs/astropy__astropy-12907/astropy__astropy-12907.traj.json');
    expect(r.steps[0]).toMatchObject({ tool: 'bash', action: { kind: 'shell', command: 'ls -R' }, exitCode: 0, tokens: { prompt: 1662, completion: 106 } });
    expect(r.steps[19]?.action).toEqual({ kind: 'finish', text: 'echo COMPLETE_TASK_AND_SUBMIT_FINAL_OUTPUT && git add -A && git diff --cached' });
    expect(r.meta).toMatchObject({ task: 'astropy__astropy-12907', model: 'google/gemini-3-pro-preview', exitStatus: 'Submitted' });
  });
  it('v1.1: exit code from extra.returncode, the final exit message completes the submit step', () => {
    const r = parse('SWE-agent__mini-swe-agent__pull-refs/output/deepseek_bench1/astropy__astropy-12907/astropy__astropy-12907.traj.json');
    expect(r.steps[3]?.exitCode).toBe(1);
    expect(r.steps[3]?.observation).toMatch(/^<returncode>1<\/returncode>/);
    expect(r.steps[0]?.id).toBe('call_00_v2xIYBoljjOJJaBs3CrrmNbW');
    expect(r.steps[35]?.action.kind).toBe('finish');
    expect(r.steps[35]?.observation).toMatch(/^diff --git a\/astropy\/modeling\/separable.py/);
  });
  it('a Timeout run with no assistant turn has no steps but keeps its exit status', () => {
    const r = parse('SWE-agent__mini-swe-agent__pull-refs/output/deepseek_reasoner_dev/pylint-dev__astroid-1196/pylint-dev__astroid-1196.traj.json');
    expect(r.steps).toEqual([]);
    expect(r.meta.exitStatus).toBe('Timeout');
  });
});

describe('OpenHands', () => {
  it('completion log: the exit code is recovered from the text', () => {
    const r = parse('gsmoon97__swe-agent-eval/evaluation/python/verified/20250329_OpenHands_Claude-3.5-Sonnet(Oct)/trajs/django__django-11999/Claude-3.5-Sonnet(Oct)-1743406483.8866951.json');
    expect(r.steps[2]?.action.kind).toBe('shell');
    expect(r.steps[2]?.exitCode).toBe(1);
    expect(r.steps[2]?.observation).toContain('[Command finished with exit code 1]');
    expect(r.steps[25]).toMatchObject({ tool: 'finish', action: { kind: 'finish' } });
  });
  it('output.jsonl: one result per instance with its instance_id, model and patch', () => {
    const r = parseInstancesText(corpusText('OpenHands__OpenHands/evaluation/benchmarks/multi_swe_bench/examples/output.jsonl'), 'auto');
    if (!r.ok) throw r.error;
    expect(r.value.map((p) => p.meta.task)).toEqual(['ponylang__ponyc-4595', 'ponylang__ponyc-4593', 'ponylang__ponyc-4588']);
    expect(r.value[0]?.meta.model).toBe('openai/openrouter-llama-4-maverick');
    expect(r.value[2]?.meta.exitStatus).toMatch(/^error: /);
    const steps = r.value[0]?.steps ?? [];
    expect(steps[0]).toMatchObject({ tool: 'execute_bash', exitCode: 0, cwd: '/workspace/ponylang__ponyc__0.1', tokens: { prompt: 5920, completion: 128 } });
    expect(steps.some((s) => s.exitCode === 127)).toBe(true);
  });
  it('older flat schema: exit_code field, adjacency pairing, ipython as code', () => {
    const r = parse('OpenHands__OpenHands/tests/unit/resolver/mock_output/output.jsonl');
    expect(r.steps[0]).toMatchObject({ tool: 'run', action: { kind: 'shell', command: 'touch LICENSE' }, exitCode: 0 });
    expect(r.steps[1]?.action).toMatchObject({ kind: 'code', language: 'python' });
    expect(r.steps[3]?.action.kind).toBe('finish');
  });
});

describe('ATIF', () => {
  it('v1.5: per-step metrics become tokens, results pair by source_call_id', () => {
    const r = parse('sachiny0106__Xelron_harbor-copy/tests/golden/openhands/hello-world.trajectory.json');
    expect(r.steps[0]).toMatchObject({
      tool: 'str_replace_editor',
      action: { kind: 'edit', op: 'create', path: '/app/hello.txt', text: 'Hello, world!' },
      observation: 'File created successfully at: /app/hello.txt',
      tokens: { prompt: 100, completion: 50 },
    });
    expect(r.steps[1]?.action.kind).toBe('finish');
  });
  it('older variant: results from separate system steps, even those before the call', () => {
    const r = parse('OpenAgentsInc__openagents/results/trajectories/regex-log/20251211-161750-ba4ddb16/trajectory.json');
    expect(r.steps[0]?.action).toEqual({ kind: 'none' });
    expect(r.steps[1]).toMatchObject({ tool: 'Write', action: { kind: 'edit', op: 'write', path: '/app/regex.txt' }, observation: "EACCES: permission denied, mkdir '/app'" });
    expect(r.steps[3]?.exitCode).toBe(1);
    expect(r.steps[5]?.observation).toBe('File created successfully at: /tmp/tmp.Gtrekx29jH/regex.txt');
    expect(r.meta).toMatchObject({ model: 'claude-sonnet-4-20250514', agent: 'claude-code 2.0.58' });
  });
});
