/**
 * The reference of each run `steplens rank` scores: --pta for every run; else its task's PTA in --references /
 * --bundled (with at least MIN_REFERENCES references); else the prior. Per task, as `POST /v1/rank` scores each run
 * against its task's stored reference: with --mixed-tasks a run of a task with a PTA meets that PTA on both.
 */
import type { Reference } from '../core/scorer-api.js';
import { plural } from '../core/plural.js';
import { MIN_REFERENCES } from '../report/score-corpus.js';
import type { ExternalReference } from '../report/types.js';
import { ReferenceFolder } from '../store/reference-folder.js';
import { taskFileName } from '../store/file-names.js';
import { readPta } from './input.js';
import { chooseReference, externalReferences, referenceFolderArgs, type ReferenceFolderArg } from './references.js';

export interface RankReferenceFlags {
  pta?: string | undefined;
  references?: string[] | undefined;
  bundled?: boolean | undefined;
  'prior-dir'?: string | undefined;
}

/** The reference of a run of `task` (undefined: the log names none). */
export type ReferenceOf = (task: string | undefined) => Reference;

export interface RankReferences {
  of: ReferenceOf;
  /** Where --references / --bundled were searched and what to pass instead, when a run's task has no usable PTA there. */
  missing?: string;
}

const MAX_LISTED = 5;

const folderName = (source: string): string => (source === 'bundled' ? 'the bundled references' : `--references ${source}`);

const listed = (xs: readonly string[]): string => (xs.length <= MAX_LISTED ? xs.join(', ') : `${xs.slice(0, MAX_LISTED).join(', ')}, ... (${xs.length} in all)`);

/** "the bundled references, which hold PTAs of a, b": each searched folder and what it holds. */
async function searched(folders: readonly ReferenceFolderArg[]): Promise<string> {
  const each = await Promise.all(
    folders.map(async (f) => {
      const tasks = (await ReferenceFolder.open(f.dir)).tasks();
      return `${folderName(f.source)}, which hold PTAs of ${listed(tasks)}`;
    }),
  );
  return each.join(' and ');
}

/**
 * The note for tasks the folders hold no usable PTA of (a user who asked for --bundled otherwise reads only "no PTA of
 * the task" and cannot tell it was looked for in four bundled examples): where it looked, and what to give instead.
 */
async function missingNote(folders: readonly ReferenceFolderArg[], absent: readonly string[], thin: ReadonlyArray<[string, ExternalReference]>, unnamed: boolean): Promise<string | undefined> {
  if (absent.length === 0 && thin.length === 0 && !unnamed) return undefined;
  const where = await searched(folders);
  const parts = [
    ...(absent.length > 0 ? [`no PTA of ${listed(absent)} in ${where}`] : []),
    ...thin.map(([t, f]) => `the PTA of ${t} in ${folderName(f.source)} holds ${plural(f.pta.references.length, 'reference run')} (fewer than ${MIN_REFERENCES})`),
    ...(unnamed ? ['a run names no task (give --task ID to look up its PTA)'] : []),
  ];
  const example = absent[0] ?? thin[0]?.[0] ?? 'TASK';
  return (
    `${parts.join('; ')}; scored against the prior.\n      For a PTA, give --pta PTA.json, or --references DIR holding ${taskFileName(example)}: ` +
    `steplens build-pta --task ${example} --out DIR/${taskFileName(example)} RUN... makes it from ${MIN_REFERENCES}+ passing runs`
  );
}

export async function rankReferences(values: RankReferenceFlags, tasks: ReadonlyArray<string | undefined>, cwd: string): Promise<RankReferences> {
  if (values.pta !== undefined) {
    const given: Reference = { kind: 'pta', pta: await readPta(values.pta) };
    return { of: () => given };
  }
  const prior = await chooseReference(undefined, values['prior-dir']);
  const folders = referenceFolderArgs(values.references, values.bundled === true, cwd);
  const named = [...new Set(tasks.filter((t): t is string => t !== undefined))];
  const found = folders.length > 0 && named.length > 0 ? await externalReferences(folders, named) : new Map<string, ExternalReference>();
  const ptas = new Map<string, Reference>();
  for (const [task, f] of found) if (f.pta.references.length >= MIN_REFERENCES) ptas.set(task, { kind: 'pta', pta: f.pta });
  const of: ReferenceOf = (task) => (task !== undefined ? ptas.get(task) : undefined) ?? prior;
  if (folders.length === 0) return { of };
  const absent = named.filter((t) => !found.has(t));
  const thin = named.flatMap((t): Array<[string, ExternalReference]> => {
    const f = found.get(t);
    return f !== undefined && f.pta.references.length < MIN_REFERENCES ? [[t, f]] : [];
  });
  const missing = await missingNote(folders, absent, thin, tasks.includes(undefined));
  return missing === undefined ? { of } : { of, missing };
}
