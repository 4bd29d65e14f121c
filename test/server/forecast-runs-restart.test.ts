/**
 * `--forecast-learn` keeps its sessions across restarts (src/server/forecast-runs.ts), over a real socket with real
 * runs: after a restart on the same data and `--forecast` file, the next attempts see exactly the sessions they would
 * have seen without it, so the version they put in force equals that of a server that never restarted; a tenant's
 * sessions are in its own file only; the file stays within its bound and its replay equals the sessions kept; a bad
 * line is skipped with a warn line naming file and line; a file kept over another `--forecast` file is not read,
 * nor any with --forecast-learn-fresh.
 */
import { appendFile, readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { removeDir, tempDir } from './helpers.js';
import { blind, learningServer as server, other, report, runs, tokens, type ForecastInfo as Info } from './forecast-learn-support.js';

/** 6 outcomes as reported, then the same 6 runs with the opposite outcomes. */
const FIRST = runs.slice(0, 6).map((run) => ({ run, passed: run.passed }));
const SECOND = runs.slice(0, 6).map((run) => ({ run, passed: !run.passed }));

/** The lines of a runs file, parsed. */
async function fileLines(dir: string, sub = ''): Promise<Array<{ kind: string; id?: string }>> {
  const text = await readFile(path.join(dir, 'forecasts', sub, 'runs.jsonl'), 'utf8');
  return text
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as { kind: string; id?: string });
}

describe('--forecast-learn keeps its sessions across restarts', () => {
  it('learn, restart, report more: the version put in force equals that of a server that never restarted', async () => {
    const once = await tempDir();
    const twice = await tempDir();
    try {
      // Never restarted.
      const a = await server(once, blind);
      let expected: Info;
      let expectedAttempts: Info['learning']['attempts'];
      try {
        await report(a, 'a', FIRST);
        expectedAttempts = await report(a, 'b', SECOND);
        expected = await a.info();
      } finally {
        await a.srv.app.close();
      }
      expect(expectedAttempts.some((t) => t.result === 'accepted')).toBe(true);

      const b1 = await server(twice, blind);
      await report(b1, 'a', FIRST);
      await b1.srv.app.close();
      const b2 = await server(twice, blind);
      try {
        expect((await b2.info()).learning.sessions).toBe(FIRST.length);
        expect(b2.lines.some((l) => l.includes('forecast sessions restored') && l.includes('runs.jsonl'))).toBe(true);
        const attempts = await report(b2, 'b', SECOND);
        const got = await b2.info();
        // Each attempt saw the same sessions and decided the same, and the models in force are the same, to the bit.
        expect(attempts.map(({ sessions, result, reason, version }) => ({ sessions, result, reason, version }))).toEqual(
          expectedAttempts.map(({ sessions, result, reason, version }) => ({ sessions, result, reason, version })),
        );
        expect(got.learning.sessions).toBe(FIRST.length + SECOND.length);
        expect(got.version).toBe(expected.version);
        expect(got.models).toEqual(expected.models);
      } finally {
        await b2.srv.app.close();
      }
    } finally {
      await removeDir(once);
      await removeDir(twice);
    }
  }, 120_000);

  it("each tenant's sessions are saved in its own file only, and each gets its own back", async () => {
    const dir = await tempDir();
    try {
      const first = await server(dir, blind, { tokens });
      await report(first, 'a', FIRST.slice(0, 3), 'tok-a');
      await report(first, 'b', SECOND.slice(0, 4), 'tok-b');
      await first.srv.app.close();
      const ids = async (sub: string) => (await fileLines(dir, sub)).filter((l) => l.kind === 'run').map((l) => l.id);
      expect(await ids('tenants/team-a')).toEqual(['a-0', 'a-1', 'a-2']);
      expect(await ids('tenants/team-b')).toEqual(['b-0', 'b-1', 'b-2', 'b-3']);
      await expect(readFile(path.join(dir, 'forecasts', 'runs.jsonl'))).rejects.toThrow();

      const second = await server(dir, blind, { tokens });
      try {
        expect((await second.info('tok-a')).learning.sessions).toBe(3);
        expect((await second.info('tok-b')).learning.sessions).toBe(4);
        const [next] = await report(second, 'a2', FIRST.slice(3, 4), 'tok-a');
        expect(next!.sessions).toBe(4);
        expect((await second.info('tok-b')).learning.sessions).toBe(4);
      } finally {
        await second.srv.app.close();
      }
    } finally {
      await removeDir(dir);
    }
  }, 120_000);

  it('past maxRuns the file is rewritten, and a restart holds the same newest sessions', async () => {
    const dir = await tempDir();
    try {
      const first = await server(dir, blind, {}, { maxRuns: 2 });
      await report(first, 'a', [...FIRST, ...SECOND], undefined, false);
      await first.srv.app.close();
      const lines = await fileLines(dir);
      // Header + at most twice the sessions kept + 8 (else 12 run lines, 10 drops and the attempts').
      expect(lines.length).toBeLessThanOrEqual(1 + 2 * 2 + 8);
      const second = await server(dir, blind, {}, { maxRuns: 2 });
      try {
        expect((await second.info()).learning.sessions).toBe(2);
        await report(second, 'b', FIRST.slice(0, 1), undefined, false);
        expect((await second.info()).learning.sessions).toBe(2);
      } finally {
        await second.srv.app.close();
      }
      // The oldest went (a-10), as without the restart: the file's lines replay to the two newest.
      const kept = new Map<number, string | undefined>();
      for (const l of (await fileLines(dir)) as Array<{ kind: string; n?: number; id?: string }>) {
        if (l.kind === 'run') kept.set(l.n!, l.id);
        if (l.kind === 'drop') kept.delete(l.n!);
      }
      expect([...kept.values()]).toEqual(['a-11', 'b-0']);
    } finally {
      await removeDir(dir);
    }
  }, 120_000);

  it('a bad line is skipped with a warn line naming file and line; a file kept over another --forecast file is not read, nor with --forecast-learn-fresh', async () => {
    const dir = await tempDir();
    try {
      const first = await server(dir, blind);
      await report(first, 'a', FIRST.slice(0, 3), undefined, false);
      await first.srv.app.close();
      const file = path.join(dir, 'forecasts', 'runs.jsonl');
      const count = (await fileLines(dir)).length;
      await appendFile(file, '{"kind":"run","n":99,"rows":[\n{"kind":"run","n":100}\n');

      const second = await server(dir, blind);
      try {
        expect((await second.info()).learning.sessions).toBe(3);
        const warns = second.lines.filter((l) => l.includes('"level":40') && l.includes('forecast session line skipped') && l.includes(file));
        expect(warns.map((l) => (JSON.parse(l) as { line: number }).line)).toEqual([count + 1, count + 2]);
      } finally {
        await second.srv.app.close();
      }
      const deployed = await server(dir, other);
      try {
        expect((await deployed.info()).learning.sessions).toBe(0);
        expect(deployed.lines.some((l) => l.includes('"level":40') && l.includes('forecast sessions not restored') && l.includes('another forecast file') && l.includes(file))).toBe(true);
      } finally {
        await deployed.srv.app.close();
      }
      const fresh = await server(dir, blind, {}, { fresh: true });
      try {
        expect((await fresh.info()).learning.sessions).toBe(0);
      } finally {
        await fresh.srv.app.close();
      }
      // Not read, not deleted: back on the first file, its sessions are back.
      const back = await server(dir, blind);
      try {
        expect((await back.info()).learning.sessions).toBe(3);
      } finally {
        await back.srv.app.close();
      }
    } finally {
      await removeDir(dir);
    }
  }, 120_000);
});
