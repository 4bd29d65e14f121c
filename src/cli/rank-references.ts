/**
 * The reference of each run `steplens rank` scores: --pta for every run; else its task's PTA in --references /
 * --bundled (with at least MIN_REFERENCES references); else the prior. Per task, as `POST /v1/rank` scores each run
 * against its task's stored reference: with --mixed-tasks a run of a task with a PTA meets that PTA on both.
 */
import type { Reference } from '../core/scorer-api.js';
import { MIN_REFERENCES } from '../report/score-corpus.js';
import { readPta } from './input.js';
import { chooseReference, externalReferences, referenceFolderArgs } from './references.js';

export interface RankReferenceFlags {
  pta?: string | undefined;
  references?: string[] | undefined;
  bundled?: boolean | undefined;
  'prior-dir'?: string | undefined;
}

/** The reference of a run of `task` (undefined: the log names none). */
export type ReferenceOf = (task: string | undefined) => Reference;

export async function rankReferences(values: RankReferenceFlags, tasks: ReadonlyArray<string | undefined>, cwd: string): Promise<ReferenceOf> {
  if (values.pta !== undefined) {
    const given: Reference = { kind: 'pta', pta: await readPta(values.pta) };
    return () => given;
  }
  const prior = await chooseReference(undefined, values['prior-dir']);
  const folders = referenceFolderArgs(values.references, values.bundled === true, cwd);
  const named = [...new Set(tasks.filter((t): t is string => t !== undefined))];
  const found = folders.length > 0 && named.length > 0 ? await externalReferences(folders, named) : new Map<string, { pta: Extract<Reference, { kind: 'pta' }>['pta'] }>();
  const ptas = new Map<string, Reference>();
  for (const [task, f] of found) if (f.pta.references.length >= MIN_REFERENCES) ptas.set(task, { kind: 'pta', pta: f.pta });
  return (task) => (task !== undefined ? ptas.get(task) : undefined) ?? prior;
}
