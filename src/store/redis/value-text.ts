/**
 * A big value read from Redis (a chain's PTA or added states, a version key: up to tens of MB) as text, decoded a
 * slice a turn. Read as a string, ioredis decodes the whole reply in one `toString` once its last byte is in: an
 * 8 MB chain element held the replica's thread 32-91 ms at load 4-7 on 2 cores. Read as a Buffer, the reply is
 * only joined (one copy: 3-35 ms), and decoded here a slice at a time (bench/README.md, "(stop 50)").
 *
 * Reading such a value in pieces from Redis instead (a script returning `string.sub` of `LINDEX key i`) was
 * measured and rejected: every piece copies the whole element inside Redis, so an 8 MB element in 1 MiB pieces
 * cost Redis 0.7-1.3 s of CPU (89-166 ms per piece, every other replica's commands waiting) against 23-77 ms for
 * one LINDEX, while the Buffer read already keeps the receiving thread's longest turn under 35 ms.
 */
import { StringDecoder } from 'node:string_decoder';
import { setImmediate as nextTurn } from 'node:timers/promises';

/** Bytes decoded per turn of the event loop (1 MiB: about 1-5 ms). */
export const DECODE_SLICE_BYTES = 1 << 20;

/** `bytes` as UTF-8 text (as `bytes.toString()`), decoded `sliceBytes` at a time with the event loop turning between slices. */
export async function textInSlices(bytes: Buffer, sliceBytes = DECODE_SLICE_BYTES): Promise<string> {
  if (bytes.length <= sliceBytes) return bytes.toString();
  // A slice may end inside a character: the decoder keeps its first bytes for the next slice.
  const decoder = new StringDecoder('utf8');
  const parts: string[] = [];
  for (let at = 0; at < bytes.length; at += sliceBytes) {
    if (at > 0) await nextTurn();
    parts.push(decoder.write(bytes.subarray(at, at + sliceBytes)));
  }
  parts.push(decoder.end());
  return parts.join('');
}
