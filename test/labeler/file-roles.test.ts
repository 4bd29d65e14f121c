import { describe, expect, it } from 'vitest';
import { fileRole, isTestPath, hasScratchName, testPathUncached, TEST_PATH_MEMO_ENTRIES } from '../../src/core/labeler/file-roles.js';
import { toRepoPath, rewriteRoots } from '../../src/core/labeler/paths.js';

describe('test files and scratch scripts (section 2.1)', () => {
  it.each([
    'tests/test_scheduler/test_scheduler.py',
    'astropy/modeling/tests/test_separable.py',
    'src/test/java/com/fasterxml/jackson/core/VersionTest.java',
    'JsonWriterTestAfterFix.java',
    'foo_test.go',
    'web/app.spec.ts',
    'conftest.py',
    'Testing/x.c',
    'test_issue.py',
  ])('%s is a test file', (p) => expect(isTestPath(p)).toBe(true));
  it.each(['astropy/io/ascii/rst.py', 'latest.py', 'contest/main.py', 'attestation.py', 'pytest.ini'])('%s is not', (p) => expect(isTestPath(p)).toBe(false));
  it('the memo answers as the uncached check, before and after it fills up and starts over', () => {
    const paths = ['tests/a.py', 'src/a.py', 'Testing/x.c', 'latest.py', 'web/app.spec.ts', 'pkg/conftest.py'];
    for (let round = 0; round < 3; round++) for (const p of paths) expect(isTestPath(p)).toBe(testPathUncached(p));
    for (let i = 0; i < TEST_PATH_MEMO_ENTRIES + 10; i++) expect(isTestPath(`pkg${i % 7 === 0 ? '/tests' : ''}/m${i}.py`)).toBe(i % 7 === 0);
    for (const p of paths) expect(isTestPath(p)).toBe(testPathUncached(p));
  });
  it.each(['reproduce_issue.py', 'repro_scheduler_get_schedule.py', 'debug_structure.py', 'CHECK_fix.py', 'verify.sh', 'scratch.py', 'tmp_x.py'])('%s has a scratch name', (p) =>
    expect(hasScratchName(p)).toBe(true),
  );
  it('roles depend on where the agent created the file', () => {
    expect(fileRole('test_issue.py', true)).toBe('scratch');
    expect(fileRole('/tmp/x.py', true)).toBe('scratch');
    expect(fileRole('moto/scheduler/utils.py', true)).toBe('source');
    expect(fileRole('tests/test_new.py', true)).toBe('test');
    expect(fileRole('django/contrib/auth/checks.py', false)).toBe('source');
    expect(fileRole('django/contrib/auth/debug_helper.py', true)).toBe('scratch');
    expect(fileRole('setup.py', false)).toBe('source');
  });
});

describe('repository paths', () => {
  it('strips well-known roots and the trajectory root', () => {
    expect(toRepoPath('/testbed/moto/models.py', { dir: '.' })).toBe('moto/models.py');
    expect(toRepoPath('/workspace/django__django__3.0/django/x.py', { dir: '.' })).toBe('django/x.py');
    expect(toRepoPath('/repo/a/../b.py', { dir: '.' })).toBe('b.py');
    expect(toRepoPath('/fasterxml__jackson-core/src/A.java', { root: '/fasterxml__jackson-core', dir: '.' })).toBe('src/A.java');
    expect(toRepoPath('./x.py', { dir: 'astropy/io' })).toBe('astropy/io/x.py');
    expect(toRepoPath('/tmp/r.py', { dir: '.' })).toBe('/tmp/r.py');
    expect(toRepoPath('/testbed', { dir: '.' })).toBe('.');
  });
  it('rewrites roots inside commands', () => {
    expect(rewriteRoots('grep -rn foo /testbed/tests && ls /testbed', undefined)).toBe('grep -rn foo tests && ls .');
    expect(rewriteRoots("python '/workspace/astropy__astropy__4.3/x.py'", undefined)).toBe("python 'x.py'");
    expect(rewriteRoots('cat /testbedx/a', undefined)).toBe('cat /testbedx/a');
  });
});
