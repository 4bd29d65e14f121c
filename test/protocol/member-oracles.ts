/**
 * The two readings the array-member scan tests compare (array-member.test.ts, array-members.test.ts): what the scan
 * and a parse of each range it gives say, and what parsing the body whole says, of the same members.
 */
import { expect } from 'vitest';
import { arrayMembersElements } from '../../src/protocol/array-member.js';
import { jsonMutations } from './json-mutations.js';

/** The members found by the scan, each range parsed; undefined when the scan does not take the body, or a range does not parse. */
export function scannedMembers(text: string | Buffer, keys: readonly string[]): Record<string, unknown[]> | undefined {
  const body = typeof text === 'string' ? Buffer.from(text) : text;
  const scan = arrayMembersElements(body, keys);
  const lists: unknown[][] = keys.map(() => []);
  try {
    for (let next = scan.next(); ; next = scan.next()) {
      if (next.done === true) {
        const rest = next.value;
        if (rest === undefined) return undefined;
        for (const [s, e] of rest.others) JSON.parse(body.subarray(s, e).toString());
        return Object.fromEntries(keys.flatMap((k, i) => (rest.found[i] === true ? [[k, lists[i]!]] : [])));
      }
      const [member, s, e] = next.value;
      lists[member]!.push(JSON.parse(body.subarray(s, e).toString()));
    }
  } catch {
    return undefined;
  }
}

/** What parsing whole says of the same members: undefined when the body is not JSON, not an object, or one of them is no array. */
export function parsedMembers(text: string | Buffer, keys: readonly string[]): Record<string, unknown[]> | undefined {
  try {
    const doc = JSON.parse(typeof text === 'string' ? text : new TextDecoder().decode(text)) as Record<string, unknown>;
    if (doc === null || typeof doc !== 'object' || Array.isArray(doc)) return undefined;
    const present = keys.filter((k) => Object.hasOwn(doc, k));
    if (present.some((k) => !Array.isArray(doc[k]))) return undefined;
    return Object.fromEntries(present.map((k) => [k, doc[k] as unknown[]]));
  } catch {
    return undefined;
  }
}

/** Over `n` seeded mutations of `base`: whatever `read` takes, `whole` reads the same (asserted); how many it took. */
export function mutationsAgreeing<T>(base: Buffer, n: number, seed: number, read: (b: Buffer) => T | undefined, whole: (b: Buffer) => T | undefined): number {
  let accepted = 0;
  for (const mutated of jsonMutations(base, n, seed)) {
    const mine = read(mutated);
    if (mine !== undefined) {
      accepted++;
      expect(whole(mutated), mutated.toString()).toEqual(mine);
    }
  }
  return accepted;
}
