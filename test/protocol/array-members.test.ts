/**
 * The scan of several array members at once, behind a `/get_reward` body read a query, prompt and label at a time
 * (body-in-slices.ts): whenever it accepts a body and every range it gives parses, the body is valid JSON and each
 * member named is either absent or exactly the elements given for it; bodies it does not take for certain give
 * undefined (the caller parses them whole). Checked on hand-made cases and on 3,000 seeded mutations of a real body.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { arrayMembersElements } from '../../src/protocol/array-member.js';
import { ASTROID } from '../server/helpers.js';
import { jsonMutations } from './json-mutations.js';

const KEYS = ['query', 'prompts', 'labels'];

/** What the scan and a parse of each range say: the members found, parsed, or undefined (parse whole). */
function read(text: string | Buffer): Record<string, unknown[]> | undefined {
  const body = typeof text === 'string' ? Buffer.from(text) : text;
  const scan = arrayMembersElements(body, KEYS);
  const lists: unknown[][] = KEYS.map(() => []);
  try {
    for (let next = scan.next(); ; next = scan.next()) {
      if (next.done === true) {
        const rest = next.value;
        if (rest === undefined) return undefined;
        for (const [s, e] of rest.others) JSON.parse(body.subarray(s, e).toString());
        return Object.fromEntries(KEYS.flatMap((k, i) => (rest.found[i] === true ? [[k, lists[i]!]] : [])));
      }
      const [member, s, e] = next.value;
      lists[member]!.push(JSON.parse(body.subarray(s, e).toString()));
    }
  } catch {
    return undefined;
  }
}

/** What parsing whole says of the same members: undefined when the body is not JSON, not an object, or one of them is no array. */
function whole(text: string | Buffer): Record<string, unknown[]> | undefined {
  try {
    const doc = JSON.parse(typeof text === 'string' ? text : new TextDecoder().decode(text)) as Record<string, unknown>;
    if (doc === null || typeof doc !== 'object' || Array.isArray(doc)) return undefined;
    const present = KEYS.filter((k) => Object.hasOwn(doc, k));
    if (present.some((k) => !Array.isArray(doc[k]))) return undefined;
    return Object.fromEntries(present.map((k) => [k, doc[k] as unknown[]]));
  } catch {
    return undefined;
  }
}

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
    let accepted = 0;
    for (const mutated of jsonMutations(base, 3000, 7)) {
      const mine = read(mutated);
      if (mine !== undefined) {
        accepted++;
        expect(whole(mutated), mutated.toString()).toEqual(mine);
      }
    }
    expect(accepted).toBeGreaterThan(1000);
    expect(read(base)).toEqual(whole(base));
  });
});
