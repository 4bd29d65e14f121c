import { describe, expect, it } from 'vitest';
import { outcomesFromDoc, isAuxiliaryDoc } from '../../src/report/outcome-docs.js';
import { lookupOutcome, parseOutcomesTable } from '../../src/report/outcomes-table.js';
import { identify, runFromPath, taskFromPath } from '../../src/report/identity.js';
import { infraExit } from '../../src/report/resolve-outcome.js';

describe('evaluation documents', () => {
  it('reads a harness per-instance report, nested and flat', () => {
    expect(outcomesFromDoc({ 'getmoto__moto-4799': { resolved: true, tests_status: {} } })?.get('getmoto__moto-4799')).toBe('pass');
    expect(outcomesFromDoc({ resolved: false, patch_exists: true, tests_status: {} }, 'django__django-11999')?.get('django__django-11999')).toBe('fail');
  });
  it('reads run summaries: resolved, unresolved, empty patch, error and incomplete ids', () => {
    const m = outcomesFromDoc({
      resolved: ['a__a-1'],
      unresolved_ids: ['b__b-2'],
      empty_error_patch_ids: ['c__c-3'],
      error_ids: ['d__d-4'],
      incomplete_ids: ['e__e-5'],
    })!;
    expect([...m]).toEqual([
      ['e__e-5', 'unknown'],
      ['d__d-4', 'censored'],
      ['c__c-3', 'fail'],
      ['b__b-2', 'fail'],
      ['a__a-1', 'pass'],
    ]);
    expect(outcomesFromDoc({ resolved_ids: ['x__y-1'], unresolved_ids: [] })!.get('x__y-1')).toBe('pass');
    expect(outcomesFromDoc({ instances: [{ instance_id: 'x__y-1', resolved: false }] })!.get('x__y-1')).toBe('fail');
  });
  it('tells evaluation and task files from trajectories', () => {
    expect(isAuxiliaryDoc({ instance_id: 'x__y-1', patch: '', FAIL_TO_PASS: [] })).toBe(true);
    expect(isAuxiliaryDoc({ trajectory: [], info: {} })).toBe(false);
    expect(outcomesFromDoc([1, 2])).toBeNull();
  });
});

describe('--outcomes table', () => {
  it('reads CSV with quoting and JSON Lines', () => {
    const csv = parseOutcomesTable('task,run,model,outcome\nx__y-1,r1,"m, one",resolved\nx__y-1,r2,,fail\n', 'o.csv');
    expect(csv.ok && csv.value).toEqual([
      { task: 'x__y-1', run: 'r1', model: 'm, one', outcome: 'pass' },
      { task: 'x__y-1', run: 'r2', outcome: 'fail' },
    ]);
    const jsonl = parseOutcomesTable('{"instance_id":"x__y-1","resolved":true}\n{"task":"x__y-2","outcome":"censored"}\n', 'o.jsonl');
    expect(jsonl.ok && jsonl.value.map((e) => e.outcome)).toEqual(['pass', 'censored']);
  });
  it('names the line and value that are wrong', () => {
    const bad = parseOutcomesTable('task,outcome\nx__y-1,maybe\n', 'o.csv');
    expect(!bad.ok && bad.error.message).toBe("o.csv line 2: outcome 'maybe' is not one of pass, fail, censored, unknown");
    const inherited = parseOutcomesTable('task,outcome\nx__y-1,constructor\n', 'o.csv');
    expect(!inherited.ok && inherited.error.message).toBe("o.csv line 2: outcome 'constructor' is not one of pass, fail, censored, unknown");
    const object = parseOutcomesTable('{"task":"x__y-1","outcome":{"pass":true}}\n', 'o.jsonl');
    expect(!object.ok && object.error.code).toBe('bad_input');
    const noHeader = parseOutcomesTable('a,b\n1,2\n', 'o.csv');
    expect(!noHeader.ok && noHeader.error.code).toBe('bad_input');
    const badJson = parseOutcomesTable('{"task":"a"\n', 'o.jsonl');
    expect(!badJson.ok && badJson.error.message).toContain('o.jsonl line 1');
  });
  it('looks up by task + run, then task + model, then task alone', () => {
    const entries = [
      { task: 't', outcome: 'fail' as const },
      { task: 't', model: 'm', outcome: 'censored' as const },
      { task: 't', run: 'r', outcome: 'pass' as const },
    ];
    expect(lookupOutcome(entries, 't', 'r', 'm')).toBe('pass');
    expect(lookupOutcome(entries, 't', 'other', 'm')).toBe('censored');
    expect(lookupOutcome(entries, 't', 'other', 'n')).toBe('fail');
    expect(lookupOutcome(entries, 'u', 'r', 'm')).toBeUndefined();
  });
  it('a log that names no model matches a row on task + run whatever model the row names', () => {
    const entries = [
      { task: 't', run: 'r', model: 'gpt-4', outcome: 'pass' as const },
      { task: 't', model: 'gpt-4', outcome: 'fail' as const },
    ];
    expect(lookupOutcome(entries, 't', 'r', null)).toBe('pass');
    expect(lookupOutcome(entries, 't', 'r', 'claude')).toBeUndefined();
    expect(lookupOutcome(entries, 't', 'other', null)).toBeUndefined();
  });
});

describe('identity from logs and folders', () => {
  it('reads the task and run from the corpus layouts', () => {
    expect(taskFromPath('/c/evaluation/java/verified/20240825_SWE-agent_gpt-4o-2024-05-13/trajs/fasterxml__jackson-core-1142.traj')).toBe('fasterxml__jackson-core-1142');
    expect(runFromPath('/c/evaluation/java/verified/20240825_SWE-agent_gpt-4o-2024-05-13/trajs/fasterxml__jackson-core-1142.traj', 'fasterxml__jackson-core-1142')).toBe(
      '20240825_SWE-agent_gpt-4o-2024-05-13',
    );
    expect(runFromPath('/c/output/deepseek_chat_dev/pylint-dev__astroid-1196/pylint-dev__astroid-1196.traj.json', 'pylint-dev__astroid-1196')).toBe('deepseek_chat_dev');
    expect(runFromPath('/c/GOOD_EXAMPLES/bokeh__bokeh-13370/trace_04_claude-sonnet-4-20250514/bokeh__bokeh-13370.traj', 'bokeh__bokeh-13370')).toBe('trace_04_claude-sonnet-4-20250514');
  });
  it('prefers the log, lets flags override', () => {
    const id = identify('/c/output/run1/a__b-1/a__b-1.traj.json', { task: 'a__b-1', model: 'deepseek/deepseek-chat' }, 'mini-swe-agent');
    expect(id).toEqual({ task: 'a__b-1', run: 'run1', model: 'deepseek/deepseek-chat', agent: 'mini-swe-agent' });
    expect(identify('/c/x/a__b-1.traj', {}, 'swe-agent', { model: 'M', run: 'R' })).toEqual({ task: 'a__b-1', run: 'R', model: 'M', agent: 'swe-agent' });
  });
  it('makes up no task or model from other file and folder names', () => {
    expect(identify('/c/tests/runtime/trajs/basic.json', {}, 'openhands')).toEqual({ task: null, run: 'runtime', model: null, agent: 'openhands' });
    expect(identify('/c/run7/a__b-1.traj.json.gz', {}, 'mini-swe-agent')).toMatchObject({ task: 'a__b-1', run: 'run7', model: null });
  });
});

describe('censoring by exit status', () => {
  it('infrastructure interruptions only, not agent limits', () => {
    expect(infraExit('Timeout')).toBe(true);
    expect(infraExit('Submitted')).toBe(false);
    expect(infraExit('submitted (exit_cost)')).toBe(false);
    expect(infraExit('error: RuntimeError: Agent reached maximum iteration in headless mode. Current iteration: 50, max iteration: 50')).toBe(false);
    expect(infraExit(undefined)).toBe(false);
  });
});
