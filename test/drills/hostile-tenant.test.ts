/**
 * Drill: a second tenant with a valid agent token tries what issue 25's trial did to the first (junk
 * references and fake learn sessions on its task, pins and freezes, fake shadow outcomes, reads of its
 * sessions, every slot, stuck live viewers), small. It gets catalogue errors or its own bounded share; the
 * victim is never stopped by its outcomes, never read, never locked out. `node dist/bench/drills.js --only
 * tenant` runs it at the trial's scale. Needs `npm run build`.
 */
import { expect, it } from 'vitest';
import { runHostileTenant } from '../../bench/drills/hostile-tenant.js';
import { ASTROID, CORPUS, readDoc, readEvents } from '../server/helpers.js';

const JUNK = `${CORPUS}/SWE-agent__mini-swe-agent__pull-refs/output/deepseek_bench1/astropy__astropy-14182/astropy__astropy-14182.traj.json`;
/** The attacker's "passing" shadow runs: 36 steps, no exploration streak of 10 (the victim's run has one), so a stop exists to promote. */
const SHORT = `${CORPUS}/SWE-agent__mini-swe-agent__pull-refs/output/deepseek_bench1/astropy__astropy-12907/astropy__astropy-12907.traj.json`;

it('a hostile tenant sees and changes nothing of the victim beyond its bounded share', async () => {
  const r = await runHostileTenant({
    task: ASTROID.task,
    victimDoc: await readDoc(ASTROID.passB),
    victimEvents: await readEvents(ASTROID.passB),
    junkDoc: await readDoc(JUNK),
    junkEvents: await readEvents(JUNK),
    shadowPassEvents: await readEvents(SHORT),
    references: 10,
    learnSessions: 3,
    shadowPasses: 6,
    shadowFails: 4,
    checkSessions: 3,
    slots: 20,
    stuckViewers: 8,
    liveSessions: 2,
    // A loose promotion rule, so a few fake outcomes promote a stop (in the attacker's own pair only).
    shadow: { maxFalseStop: 0.5 },
  });
  expect(r.problems).toEqual([]);
  expect(r.victimScore.afterReferences).toBe(r.victimScore.before);
  expect(r.victimScore.afterLearn).toBe(r.victimScore.before);
  // Its quota of 2 goes into its own PTA of the task (tenant reference scope), the rest is refused.
  expect(r.referenceAnswers).toEqual({ '201': 2, quota_exceeded: 8 });
  expect(r.learnAnswers).toEqual({ quota_exceeded: 3 });
  expect(r.policyAnswers).toEqual({ forbidden: 2 });
  expect(r.malloryPromoted).not.toBeNull();
  expect(r.malloryStopped).toBeGreaterThan(0);
  expect([r.victimPromoted, r.victimStopped]).toEqual([null, 0]);
  expect([r.leaks, r.duplicateConfirmations, r.victimRefusedAfterDisconnect]).toEqual([0, 0, 0]);
  expect(r.slotAnswers).toEqual({ started: 20, quota_exceeded: 1 });
}, 300_000);
