/**
 * The scan behind a batch read an item at a time (body-in-slices.ts): whenever it accepts a body and every range it
 * gives parses, the body is valid JSON and its array member is exactly those elements; bodies of every shape it does
 * not take for certain, valid or not, give undefined (the caller parses them whole). Checked on hand-made edge
 * cases and on 3,000 seeded mutations of a real batch.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ASTROID } from '../server/helpers.js';
import { mutationsAgreeing, parsedMembers, scannedMembers } from './member-oracles.js';

/** What the scan and a parse of each range say: the member's elements parsed, or undefined (parse whole). */
const read = (text: string | Buffer, key = 'items'): unknown[] | undefined => scannedMembers(text, [key])?.[key];
/** What parsing whole says: the member, or undefined when the body is not JSON or has no such array. */
const whole = (text: string | Buffer, key = 'items'): unknown[] | undefined => parsedMembers(text, [key])?.[key];

describe('arrayMembersElements, one member', () => {
  it('finds the elements of plain bodies, whatever blanks, other members, strings with brackets and escapes they hold', () => {
    const bodies = [
      '{"items":[1]}',
      ' \n{ "a" : {"x":[1,{"y":"]}"}]} , "items" :\t[ {"t":"a\\"]b"} , [2,[3]] , "s" , -1.5e3 , true , null ] , "z":"}" }\r\n',
      '{"items":[]}',
      '{"items":[{"task":"x","trajectory":"{\\"not\\": [json"}]}',
      '{"__proto__":{"a":1},"items":[{"__proto__":2}]}',
      `{"items":[${JSON.stringify({ task: 'héllo ✓ \u2028', trajectory: ['\u0000'] })}]}`,
    ];
    for (const body of bodies) expect(read(body), body).toEqual(whole(body));
  });

  it('gives undefined for what it does not take for certain, and for invalid JSON', () => {
    const bodies = [
      '{"items":[1],"items":[2]}', // JSON.parse keeps the last: parse whole
      '{"\\u0069tems":[1]}', // an escaped key
      '\ufeff{"items":[1]}', // a byte-order mark
      '{"items":{"a":1}}',
      '{"other":[1]}',
      '[1]',
      '',
      '{"items":[1,]}',
      '{"items":[1 2]}',
      '{"items":[1],}',
      '{"items":[1]} x',
      '{"items":[1]',
      '{"items":["abc]}',
      '{"it\u0001ems":[1],"items":[2]}', // a control character in a key: invalid JSON
      '{"items":[tru]}',
      '{"items":[1],"x":[1,,2]}',
      '{"items":[{"a":1]]}',
    ];
    for (const body of bodies) expect(read(body), JSON.stringify(body)).toBeUndefined();
  });

  it('never accepts what JSON.parse refuses, and agrees with it on what it accepts, over 3,000 mutations of a real batch', () => {
    const run = readFileSync(ASTROID.passA, 'utf8').slice(0, 3000);
    const base = Buffer.from(`{"x":{"y":[1,"]"]},"items":[{"task":"t","trajectory":${JSON.stringify(run)}},[1,{"a":"\\"}"}],"s"]}`);
    const accepted = mutationsAgreeing(base, 3000, 1, read, whole);
    // Most mutations inside strings stay valid and are taken; the rest are left to the whole parse.
    expect(accepted).toBeGreaterThan(1000);
    expect(read(base)).toEqual(whole(base));
  });
});
