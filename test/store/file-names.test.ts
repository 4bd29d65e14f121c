import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MAX_NAME_BYTES, isHashedFileName, taskFileName, taskFromFileName } from '../../src/store/file-names.js';

describe('task file names', () => {
  it('keep benchmark ids readable', () => {
    expect(taskFileName('django__django-11099')).toBe('django__django-11099.json');
    expect(taskFileName('fasterxml__jackson-core-1142')).toBe('fasterxml__jackson-core-1142.json');
  });

  it('escape separators, dots at the start and anything else', () => {
    expect(taskFileName('../etc/passwd')).toBe('%2E.%2Fetc%2Fpasswd.json');
    expect(taskFileName('a b')).toBe('a%20b.json');
    expect(taskFileName('.hidden')).toBe('%2Ehidden.json');
  });

  it('round-trip any task id whose name is readable, hash the others, never contain a separator', () => {
    fc.assert(
      fc.property(fc.string({ minLength: 1, maxLength: 60, unit: 'grapheme' }), (task) => {
        const name = taskFileName(task);
        expect(name).not.toMatch(/[/\\]/);
        expect(name.startsWith('.')).toBe(false);
        expect(Buffer.byteLength(name)).toBeLessThanOrEqual(MAX_NAME_BYTES);
        if (isHashedFileName(name)) expect(taskFromFileName(name)).toBeUndefined();
        else expect(taskFromFileName(name)).toBe(task);
      }),
    );
  });

  it('ignore files that are not task files', () => {
    for (const name of ['notes.txt', '.x.json.tmp', '.json', 'a%zz.json', 'a%2e.json']) expect(taskFromFileName(name)).toBeUndefined();
  });
});
