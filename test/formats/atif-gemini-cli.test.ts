/**
 * Harbor's ATIF export of a Gemini CLI run names the tools as Gemini CLI does: `run_shell_command`
 * (`command`), `replace` (`file_path`, `old_string`, `new_string`), and ends each shell result with
 * `Exit Code: N`. Fixture: the first 6 steps of a real run (source in test/fixtures/README.md).
 */
import { describe, expect, it } from 'vitest';
import { getParser, parseTrajectoryText } from '../../src/formats/index.js';
import { fixtureLog, streamedSteps } from './fixture-log.js';

const { file: FILE, text } = fixtureLog('atif-gemini-cli-3d-scan-calc.json.gz');

describe('ATIF from Gemini CLI (Harbor export)', () => {
  it('is read as ATIF with one step per tool call, each paired with its own result', () => {
    const r = parseTrajectoryText(text, 'auto', FILE.pathname);
    if (!r.ok) throw r.error;
    expect(r.value.format).toBe('atif');
    expect(r.value.meta).toMatchObject({ agent: 'gemini-cli unknown', model: 'gemini-3-flash-preview' });
    expect(r.value.steps.map((s) => s.tool)).toEqual(['read_file', 'run_shell_command', 'run_shell_command', 'write_file', 'run_shell_command', 'replace']);
    expect(r.value.steps[1]!.observation).toMatch(/^Command: head -c 100 scan_data\.stl \| hexdump -C\n/);
    expect(r.value.steps[2]!.observation).toMatch(/^Command: od -j 80 -N 4 -t u4 scan_data\.stl\n/);
  });

  it('shell calls are shell actions with their command and exit code, `replace` an edit', () => {
    const r = parseTrajectoryText(text, 'auto', FILE.pathname);
    if (!r.ok) throw r.error;
    const [read, hexdump, od, write, run, replace] = r.value.steps;
    expect(read!.action).toEqual({ kind: 'view', path: 'material_density_table.md' });
    expect(hexdump).toMatchObject({ action: { kind: 'shell', command: 'head -c 100 scan_data.stl | hexdump -C' }, exitCode: 127 });
    expect(od).toMatchObject({ action: { kind: 'shell', command: 'od -j 80 -N 4 -t u4 scan_data.stl' }, exitCode: 0 });
    expect(write!.action).toMatchObject({ kind: 'edit', op: 'write', path: 'calculate_mass.py' });
    expect(run).toMatchObject({ action: { kind: 'shell', command: 'python3 calculate_mass.py' }, exitCode: 0 });
    expect(replace!.action).toMatchObject({ kind: 'edit', op: 'str_replace', path: '/root/calculate_mass.py' });
    const edit = replace!.action as { old: string; new: string };
    expect(edit.old).toMatch(/^ {4}components = get_connected_components\(triangles\)\n/);
    expect(edit.new).toMatch(/^ {4}# Sort components by number of triangles descending\n/);
  });

  it('streamed step by step gives the same steps', () => {
    const doc: unknown = JSON.parse(text);
    expect(streamedSteps('atif', [doc])).toEqual(getParser('atif').parse(doc).steps);
  });
});
