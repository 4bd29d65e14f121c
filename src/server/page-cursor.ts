/**
 * The `next` of a `GET /v1/sessions` page, and the `?after=` that reads the page after it. Pages are walked by the
 * sessions' ordinals, which count every tenant's sessions on this replica: given out as they are, a tenant read from
 * the gap between two of its own sessions' cursors how many sessions the others started between them (and, probing
 * `?after=N`, the ordinal of any of its own) (T77). A cursor is the ordinal and its scope (a tenant, or every tenant
 * for an operator) in one AES block under a key of this process: opaque, good only in the scope it was given for, and
 * unknown to another replica or after a restart (as the ordinals are), where it is refused as any bad `after` is.
 */
import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';

/** The scope of an operator's page of every tenant's sessions (tenant names never hold a NUL). */
export const ALL_TENANTS = '\u0000all';

const HEX = /^[0-9a-f]{32}$/;

export class PageCursors {
  private readonly key = randomBytes(16);

  /** The cursor of `ordinal` in `scope`: 32 hex characters. */
  encode(ordinal: number, scope: string): string {
    const block = Buffer.alloc(16);
    block.writeBigUInt64BE(BigInt(ordinal), 0);
    scopeTag(scope).copy(block, 8);
    const cipher = createCipheriv('aes-128-ecb', this.key, null).setAutoPadding(false);
    return Buffer.concat([cipher.update(block), cipher.final()]).toString('hex');
  }

  /** The ordinal of a cursor this process gave for `scope`; undefined for anything else. */
  decode(text: string, scope: string): number | undefined {
    if (!HEX.test(text)) return undefined;
    const decipher = createDecipheriv('aes-128-ecb', this.key, null).setAutoPadding(false);
    const block = Buffer.concat([decipher.update(Buffer.from(text, 'hex')), decipher.final()]);
    if (!block.subarray(8).equals(scopeTag(scope))) return undefined;
    const ordinal = block.readBigUInt64BE(0);
    return ordinal <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(ordinal) : undefined;
  }
}

/** 8 bytes naming the scope: a cursor of another scope decrypts to another tag (2^-64 of a match). */
const scopeTag = (scope: string): Buffer => createHash('sha256').update(scope).digest().subarray(0, 8);
