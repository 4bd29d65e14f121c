/**
 * The OpenHands V1 SDK (`OpenHands/benchmarks` outputs) writes `output.jsonl` lines whose `history` holds typed
 * events: `ActionEvent` (`tool_name`, `tool_call_id`, `tool_call.arguments`, `action: {kind, ...}`) and
 * `ObservationEvent` (`tool_call_id`, `observation: {output, metadata: {exit_code, working_dir}}`). Fixture: an
 * excerpt of a real run (source in test/fixtures/README.md).
 */
import { describe, expect, it } from 'vitest';
import { instanceDocuments, parseInstancesText } from '../../src/formats/index.js';
import { fixtureLog, streamedSteps } from './fixture-log.js';

const { file: FILE, text } = fixtureLog('openhands-v1-sdk-safety-misconfig.jsonl.gz');

function parsed() {
  const r = parseInstancesText(text, 'auto', FILE.pathname);
  if (!r.ok) throw r.error;
  expect(r.value).toHaveLength(1);
  return r.value[0]!;
}

describe('OpenHands V1 SDK output.jsonl', () => {
  it('is detected as openhands, one step per action event, each with its own observation and exit code', () => {
    const r = parsed();
    expect(r.format).toBe('openhands');
    expect(r.diagnostics).toEqual([]);
    expect(r.meta).toMatchObject({ task: 'safety-misconfig', model: 'litellm_proxy/neulab/gpt-4o-2024-08-06' });
    expect(r.steps.map((s) => s.action.kind)).toEqual(['shell', 'shell', 'shell', 'shell', 'shell', 'finish']);
    expect(r.steps.map((s) => s.exitCode)).toEqual([0, 0, 0, 0, 127, undefined]);
    expect(r.steps[2]).toMatchObject({
      tool: 'execute_bash',
      id: 'call_A4V7J2XUh6tYZC76oczfntmD',
      cwd: '/workspace',
      action: { kind: 'shell', command: 'curl -u theagentcompany:theagentcompany -O http://the-agent-company.com:8092/remote.php/webdav/Documents/Financials/TAC_financials.csv' },
    });
    expect(r.steps[2]!.observation).toContain('% Total    % Received');
    expect(r.steps[4]!.observation).toContain('bash: mail: command not found');
    expect(r.steps[5]).toMatchObject({ tool: 'finish', action: { kind: 'finish', text: expect.stringMatching(/^I have successfully coordinated with David and Mark/) } });
  });

  it('streamed event by event gives the same steps', () => {
    const doc: unknown = JSON.parse(text);
    expect(streamedSteps('openhands', instanceDocuments([doc], 'openhands'))).toEqual(parsed().steps);
  });
});
