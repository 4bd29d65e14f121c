/** Test helper: seeded one-byte mutations of a JSON body (a byte dropped, inserted or replaced by a structural one). */
export function* jsonMutations(base: Buffer, count: number, seed: number): Generator<Buffer> {
  const alphabet = Buffer.from('{}[]",:\\ 0a\n');
  let state = seed;
  const random = (n: number): number => {
    state = (state * 1103515245 + 12345) % 2 ** 31;
    return state % n;
  };
  for (let k = 0; k < count; k++) {
    const body = Buffer.from(base);
    const at = random(body.length);
    const kind = random(3);
    const byte = alphabet[random(alphabet.length)]!;
    if (kind === 0) yield Buffer.concat([body.subarray(0, at), body.subarray(at + 1)]);
    else if (kind === 1) yield Buffer.concat([body.subarray(0, at), Buffer.from([byte]), body.subarray(at)]);
    else yield body.fill(byte, at, at + 1);
  }
}
