/**
 * The scan of several array members at once, behind a `/get_reward` body read a query, prompt and label at a time
 * (body-in-slices.ts): whenever it accepts a body and every range it gives parses, the body is valid JSON and each
 * member named is either absent or exactly the elements given for it; bodies it does not take for certain give
 * undefined (the caller parses them whole). Checked on hand-made cases and on 3,000 seeded mutations of a real body.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ASTROID } from '../server/helpers.js';
import { mutationsAgreeing, parsedMembers, scannedMembers } from './member-oracles.js';

const KEYS = ['query', 'prompts', 'labels'];

const read = (text: string | Buffer) => scannedMembers(text, KEYS);
const whole = (text: string | Buffer) => parsedMembers(text, KEYS);

describe('arrayMembersElements', () => {
  it('finds the elements of each member named, in any order, absent ones left out', () => {
    const bodies = [
      '{"query":["a"]}',
      '{"labels":[null,"{\\"task\\":\\"t\\"}"],"x":{"query":[1]},"query":["a]","b"],"prompts":[]}',
      ' {"prompts":["p"] , "query" : [ "p\\u0041" ] }\n',
      '{"other":[1]}',
      '{}',
    ];
    for (const body of bodies) expect(read(body), body).toEqual(whole(body));
    expect(read('{"query":["a"],"labels":[2]}')).toEqual({ query: ['a'], labels: [2] });
  });

  it('gives undefined for a member twice, an escaped key, a member that is no array, and invalid JSON', () => {
    const bodies = [
      '{"query":["a"],"labels":["t"],"query":["b"]}',
      '{"labels":["t"],"query":["a"],"labels":["u"]}',
      '{"prompts":[],"prompts":[]}',
      '{"\\u0071uery":["a"]}',
      '{"query":["a"],"labels":null}',
      '{"query":"a"}',
      '{"query":["a"],"prompts":["p",]}',
      '{"query":["a"],"x":[1,,2]}',
      '{"query":["a"]',
    ];
    for (const body of bodies) expect(read(body), body).toBeUndefined();
  });

  it('never accepts what JSON.parse refuses, and agrees with it on what it accepts, over 3,000 mutations of a real body', () => {
    const run = readFileSync(ASTROID.passA, 'utf8').slice(0, 3000);
    const base = Buffer.from(`{"labels":["t",null],"x":{"y":[1,"]"]},"query":[${JSON.stringify('p' + run)},"q"],"prompts":["p","\\"]"]}`);
    const accepted = mutationsAgreeing(base, 3000, 7, read, whole);
    expect(accepted).toBeGreaterThan(1000);
    expect(read(base)).toEqual(whole(base));
  });
});
