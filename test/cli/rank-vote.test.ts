/**
 * `steplens rank --basis vote` through the built bin on real corpus runs: SWE-agent with five models on
 * fasterxml__jackson-databind-4486, three of which submit the same change to EnumDeserializer.java (their scratch
 * reproduction files differ). The vote puts those three first, ties by the composite; the reference-free composite
 * puts one of them last. Bad usage is one line on stderr, exit 1.
 */
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { CORPUS } from './run-cli.js';
import { RANK_BIN, rankBin, rankJson } from './rank-bin.js';

const MODELS = ['deepseek-chat-v2', 'deepseek-coder-v2', 'doubao-pro-128k', 'gpt-4o-2024-05-13', 'gpt-4o-mini-2024-07-18'];
const JACKSON = MODELS.map((m) => path.join(CORPUS, `multi-swe-bench__experiments/evaluation/java/verified/20240825_SWE-agent_${m}/trajs/fasterxml__jackson-databind-4486.traj`));
const model = (file: string) => /SWE-agent_([^/]+)\//.exec(file)![1]!;

const steplens = rankBin;
const json = rankJson;

describe.skipIf(!existsSync(RANK_BIN))('steplens rank --basis vote (dist)', () => {
  it('orders by how many runs made the same normalised final patch, ties by the composite', () => {
    const vote = json('--basis', 'vote', ...JACKSON);
    expect(vote.by).toBe('vote');
    expect(vote.runs.map((x) => [model(x.id), x.vote])).toEqual([
      ['deepseek-chat-v2', 3],
      ['deepseek-coder-v2', 3],
      ['gpt-4o-mini-2024-07-18', 3],
      ['doubao-pro-128k', 1],
      ['gpt-4o-2024-05-13', 1],
    ]);
    expect(vote.runs.every((x) => x.score === x.vote && x.reference.kind === 'prior')).toBe(true);
    // Within one vote the composite decides; the composites are the reference-free ones.
    const free = json(...JACKSON);
    expect(free.by).toBe('reference-free');
    const composite = new Map(free.runs.map((x) => [x.id, x.composite]));
    for (const x of vote.runs) expect(x.composite).toBe(composite.get(x.id));
    for (let k = 1; k < vote.runs.length; k++) {
      const [a, b] = [vote.runs[k - 1]!, vote.runs[k]!];
      if (a.vote === b.vote) expect(a.composite).toBeGreaterThanOrEqual(b.composite);
    }
    // Not the order of the composite alone: gpt-4o-mini's patch agrees with two others, yet its composite is the lowest.
    expect(model(free.runs.at(-1)!.id)).toBe('gpt-4o-mini-2024-07-18');
    const text = steplens('--basis', 'vote', ...JACKSON);
    expect(text.code).toBe(0);
    expect(text.stdout.split('\n')[0]).toBe(
      'fasterxml__jackson-databind-4486: 5 runs ordered by the vote of the group: how many runs made the same final patch (normalised), ties by the composite; no run known to pass, no reference',
    );
    expect(text.stdout.split('\n')[2]).toMatch(/^rank\s+run\s+vote\s+composite\s+reference\s+steps$/);
  });

  it('says when the vote decided nothing: two runs with different patches (each vote 1) are in the order of their composites', () => {
    const two = [JACKSON[2]!, JACKSON[3]!]; // doubao-pro-128k and gpt-4o: neither made another's patch
    const vote = json('--basis', 'vote', ...two);
    expect(vote.runs.map((x) => x.vote)).toEqual([1, 1]);
    expect(vote.basisFlat).toBe(true);
    expect(vote.runs[0]!.composite).toBeGreaterThan(vote.runs[1]!.composite);
    const text = steplens('--basis', 'vote', ...two);
    expect(text.stdout).toContain("\n(the vote decided nothing: every run has vote 1 (no two runs made the same final patch), so the order is the composite's alone)\n");
    const consensus = steplens('--basis', 'consensus', ...two);
    expect(consensus.stdout).toMatch(/\n\(the consensus decided nothing: every run has consensus \d\.\d{3} \(two runs always share one agreement\), so the order is the composite's alone\)\n/);
    // Three of the five made one patch: the vote decided, nothing said.
    expect(json('--basis', 'vote', ...JACKSON).basisFlat).toBeUndefined();
    expect(steplens('--basis', 'vote', ...JACKSON).stdout).not.toContain('decided nothing');
  });

  it("classes a final patch from its counts as POST /v1/rank does: past MAX_CLASS_CHARS it is refused naming the file (T55's left-over)", () => {
    // A finish step that printed one short line 17,000 times under a 1,006-character path: 17 M characters to list.
    const dir = mkdtempSync(path.join(tmpdir(), 'steplens-rank-vote-'));
    const long = `src/${'p'.repeat(1000)}.py`;
    const write = (name: string, lines: number) => {
      const diff = `diff --git a/${long} b/${long}\n@@ -1 +1 @@\n` + '+x\n'.repeat(lines);
      const steps = [
        { t: 0, tool: 'bash', action: { kind: 'shell', command: 'git diff' }, observation: 'ok' },
        { t: 1, tool: 'submit', action: { kind: 'finish' }, observation: diff },
      ];
      const file = path.join(dir, name);
      writeFileSync(file, steps.map((x) => JSON.stringify(x)).join('\n') + '\n');
      return file;
    };
    const [small, other, big] = [write('small.jsonl', 3), write('other.jsonl', 3), write('big.jsonl', 17_000)];
    expect(json('--basis', 'vote', '--task', 'long-path', small, other).runs.map((x) => x.vote)).toEqual([2, 2]);
    const r = steplens('--basis', 'vote', '--task', 'long-path', small, big);
    expect([r.code, r.stdout]).toEqual([1, '']);
    expect(r.stderr.startsWith(`steplens rank: ${big}: its final patch: its normalised source lines come to `)).toBe(true);
    expect(r.stderr).toMatch(/come to 17\d{6} characters/);
  });

  it('says so when the basis asked yields to a PTA every run has (the bundled PTA of jackson-databind-4486)', () => {
    const r = steplens('--basis', 'vote', '--bundled', ...JACKSON);
    expect(r.code).toBe(0);
    expect(r.stdout.split('\n')[0]).toBe("fasterxml__jackson-databind-4486: 5 runs ordered by the composite against the task's PTA");
    expect(r.stdout).toContain('\n(--basis vote orders runs without a forecast model or a PTA: every run here has a PTA, so not by vote)\n');
    // Without the PTA the vote orders them, and there is nothing to say.
    expect(steplens('--basis', 'vote', ...JACKSON).stdout).not.toContain('--basis vote orders');
  });

  it('marks each pPass in --json as in-sample or not, as POST /v1/rank does (the bundled forecaster trained on four of these runs)', () => {
    const doc = json('--forecast', 'bundled', ...JACKSON);
    expect(doc.by).toBe('pPass');
    // gpt-4o-mini's run of this task has no published outcome (SOURCES.md: UNKNOWN), so no forecaster trained on it.
    expect(Object.fromEntries(doc.runs.map((x) => [model(x.id), x.pPassInSample]))).toEqual({
      'deepseek-chat-v2': true,
      'deepseek-coder-v2': true,
      'doubao-pro-128k': true,
      'gpt-4o-2024-05-13': true,
      'gpt-4o-mini-2024-07-18': false,
    });
  });

  it('refuses an unknown basis and --consensus with --basis vote, one line each', () => {
    for (const [args, message] of [
      [['--basis', 'votes'], 'steplens rank: --basis votes: expected one of consensus, vote\n'],
      [['--consensus', '--basis', 'vote'], 'steplens rank: --consensus and --basis vote are exclusive: give one basis\n'],
    ] as const) {
      const r = steplens(...args, ...JACKSON);
      expect(r).toEqual({ code: 1, stdout: '', stderr: message });
    }
    expect(json('--basis', 'consensus', ...JACKSON).by).toBe('consensus');
  });
});
