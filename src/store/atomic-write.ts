/** Crash-safe file replacement: temp file, fsync, rename, fsync of the directory. */
import { randomBytes } from 'node:crypto';
import { open, readdir, rename, rm } from 'node:fs/promises';
import path from 'node:path';

export const TEMP_SUFFIX = '.tmp';

/**
 * Replaces `file` with `text` (a string, or its pieces in order) so that a crash at any point leaves
 * either the old or the new content, never a mix: the text goes to a temporary file in the same
 * directory, is fsynced, renamed over `file`, and the directory is fsynced. Pieces are written as they
 * come (a large PTA is never one string). Returns the bytes written.
 */
export async function writeFileAtomic(file: string, text: string | AsyncIterable<string>): Promise<number> {
  const dir = path.dirname(file);
  // The name's first 64 characters only: the temporary name must fit the filesystem's limit whatever the target's length.
  const temp = path.join(dir, `.${path.basename(file).slice(0, 64)}.${process.pid}.${randomBytes(6).toString('hex')}${TEMP_SUFFIX}`);
  const handle = await open(temp, 'w', 0o644);
  let bytes = 0;
  try {
    if (typeof text === 'string') {
      await handle.writeFile(text, 'utf8');
      bytes = Buffer.byteLength(text);
    } else {
      for await (const piece of text) {
        const data = Buffer.from(piece, 'utf8');
        await handle.write(data);
        bytes += data.length;
      }
    }
    await handle.sync();
  } catch (error) {
    await handle.close().catch(() => undefined);
    await rm(temp, { force: true });
    throw error;
  }
  await handle.close();
  try {
    await rename(temp, file);
  } catch (error) {
    await rm(temp, { force: true });
    throw error;
  }
  await syncDir(dir);
  return bytes;
}

async function syncDir(dir: string): Promise<void> {
  let handle;
  try {
    handle = await open(dir, 'r');
    await handle.sync();
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code !== 'EISDIR' && code !== 'EINVAL' && code !== 'EPERM') throw error;
  } finally {
    await handle?.close();
  }
}

/** Removes temporary files a crash left behind in `dir`. */
export async function removeStaleTemps(dir: string): Promise<number> {
  let removed = 0;
  for (const name of await readdir(dir)) {
    if (name.startsWith('.') && name.endsWith(TEMP_SUFFIX)) {
      await rm(path.join(dir, name), { force: true });
      removed++;
    }
  }
  return removed;
}
