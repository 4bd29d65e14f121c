/** The embedded file store against the reference store conformance suite. */
import { afterAll } from 'vitest';
import { ReferenceStore } from '../../src/store/reference-store.js';
import { removeDir, tempDir } from '../server/helpers.js';
import { describeReferenceStore } from './conformance.js';

const dirs: string[] = [];
afterAll(async () => {
  for (const d of dirs) await removeDir(d);
});

describeReferenceStore('file', () => ({
  async fresh() {
    const dataDir = await tempDir();
    dirs.push(dataDir);
    return (options = {}) => ReferenceStore.open({ dataDir, seedDirs: options.seedDirs ?? [], ...(options.limits ? { limits: options.limits } : {}) });
  },
}));
