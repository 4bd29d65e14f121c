/** What the server drills run against: a temp folder (its data folder inside) and the astroid passing run. */
import path from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import type { Step } from '../../src/core/types.js';
import { ASTROID, readDoc, readSteps, removeDir, tempDir } from '../server/helpers.js';

export interface AstroidDrill {
  /** `data` in a temp folder removed after the file's tests (the drill's server creates it). */
  dataDir: string;
  /** ASTROID.passA, as steps and as the document. */
  steps: Step[];
  doc: unknown;
}

/** Sets the drill's folder and run up before the file's tests; the object is filled in by then. */
export function useAstroidDrill(): AstroidDrill {
  const drill: AstroidDrill = { dataDir: '', steps: [], doc: undefined };
  let dir: string | undefined;
  beforeAll(async () => {
    dir = await tempDir();
    drill.dataDir = path.join(dir, 'data');
    drill.steps = await readSteps(ASTROID.passA);
    drill.doc = await readDoc(ASTROID.passA);
  });
  afterAll(async () => {
    if (dir !== undefined) await removeDir(dir);
  });
  return drill;
}
