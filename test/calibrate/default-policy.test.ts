import { describe, expect, it } from 'vitest';
import { DEFAULT_POLICY } from '../../src/core/policy.js';
import { CORPUS, cli } from '../cli/run-cli.js';

describe('the shipped default policy', () => {
  it('is the policy steplens calibrate picks on the public corpus under the default 5 % false-stop bound', async () => {
    const run = await cli('calibrate', CORPUS, '--json');
    expect(run.code).toBe(0);
    const out = JSON.parse(run.stdout) as { policy: unknown };
    expect(out.policy).toEqual(DEFAULT_POLICY);
  }, 60_000);
});
