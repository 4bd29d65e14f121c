/**
 * The alignment (GET /v1/sessions/:id/alignment) runs in steps the server interleaves with other clients' work:
 * each state's equivalence scan is a pass over the PTA's nodes, and a tenant's 500-step session over its own
 * 5,000-node PTA held the event loop 10.7 s in one go. Asserted as a structure: the generator yields after every
 * non-O state and every reference path, and ends with what alignToPta answers.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { DEFAULT_TAU } from '../../src/core/equivalence.js';
import { ptaFromJson, ptaPaths } from '../../src/core/pta/index.js';
import { alignToPta, alignToPtaInSteps } from '../../src/core/signals/alignment.js';
import { statesOf } from '../fixtures/corpus-runs.js';
import { ASTROID, readSteps } from '../server/helpers.js';

describe('alignToPtaInSteps', () => {
  it('yields after each state scan and each path, and answers as alignToPta', async () => {
    const file = path.resolve(path.dirname(fileURLToPath(import.meta.url)), `../../data/example/${ASTROID.task}.json`);
    const pta = ptaFromJson(readFileSync(file, 'utf8'));
    if (!pta.ok) throw new Error(pta.error);
    const states = statesOf(await readSteps(ASTROID.fail));
    const steps = alignToPtaInSteps(pta.value, states, DEFAULT_TAU);
    let yields = 0;
    let r = steps.next();
    for (; r.done !== true; r = steps.next()) yields++;
    const scanned = states.filter((s) => s.stage !== 'O').length;
    expect(scanned).toBeGreaterThan(10);
    expect(yields).toBe(scanned + ptaPaths(pta.value).length);
    expect(r.value).toEqual(alignToPta(pta.value, states, DEFAULT_TAU));
    expect(r.value.matchedNodes.length).toBeGreaterThan(0);
  });
});
