/**
 * Reading PTA versions from Redis: a chain (one list: the whole PTA of its first version, then the states
 * each later version added) or, for versions stored before chains, a version's own key. A version is
 * built from the newest cached version of its chain below it when there is one, so a replica that held
 * version v reads only what v + 1 added, not the whole PTA again.
 */
import { addReferenceInSteps, knownPtaJsonBytes, rememberPtaJsonBytes } from '../../core/pta/index.js';
import type { Pta } from '../../core/scorer-api.js';
import type { State } from '../../core/types.js';
import { SteplensError, type Result } from '../../errors.js';
import { ptaFromJsonInSlices, runInSteps, statesFromJsonInSlices } from '../pta-text.js';
import type { RedisKeys } from './keys.js';
import type { RedisLink } from './link.js';
import { textInSlices } from './value-text.js';

/** Added versions read per LRANGE (one version's states: up to a few MB). */
const DELTA_PAGE = 8;

/** Where a cached version sits: its chain's first version, and the bytes of that chain up to it. */
export interface ChainState {
  start: number;
  ptaBytes: number;
  deltaBytes: number;
}

/** A task's current version and the start of the chain holding it (none: the version's own key, before chains). */
export interface Located {
  version: number;
  chain?: number;
}

/** A cached PTA version (`bytes`: its JSON's, for the cache bound). */
export interface Entry {
  pta: Pta;
  bytes: number;
  chain?: ChainState;
}

/**
 * A version's entry in its chain: the states its reference added, with who added it (`{"by":...,"states":[...]}`).
 * The states alone (`[...]`, how entries were written before, still read) lost `by` on every replica that built the
 * version from its chain (another replica, this one after a restart or once its cache let the version go): the
 * reference then counted for nobody, and a tenant past its references to a task could add more there.
 */
export function deltaText(statesJson: string, by: string | undefined): string {
  return by === undefined ? statesJson : `{"by":${JSON.stringify(by)},"states":${statesJson}}`;
}

const DELTA_HEAD = /^\{"by":("(?:[^"\\]|\\.)*"),"states":/;

/** The states (parsed a slice at a time) and who added them of a chain entry ({@link deltaText}). */
async function readDelta(text: string): Promise<{ states: Result<State[], string>; by?: string }> {
  const head = DELTA_HEAD.exec(text);
  if (head === null) return { states: await statesFromJsonInSlices(text) };
  return { states: await statesFromJsonInSlices(text.slice(head[0].length, -1)), by: JSON.parse(head[1]!) as string }; // the group always matches with the regex
}

/** Decoded and parsed a slice at a time (a 16 MB chain head parsed whole held the thread 600 ms; value-text.ts). */
async function parsePta(bytes: Buffer, where: string): Promise<Pta> {
  const parsed = await ptaFromJsonInSlices(await textInSlices(bytes));
  if (!parsed.ok) throw new SteplensError('internal', `PTA ${where} in Redis is unreadable: ${parsed.error}`);
  // Written by ptaJsonInSlices (= ptaToJson): its length is the PTA's JSON bytes.
  rememberPtaJsonBytes(parsed.value, bytes.length);
  return parsed.value;
}

/** A version stored whole under its own key (how versions were stored before chains); undefined once gone. */
export async function readVersionKey(link: RedisLink, keys: RedisKeys, task: string, version: number): Promise<Entry | undefined> {
  const key = keys.pta(task, version);
  const bytes = await link.run('get_pta', (r) => r.getBuffer(key));
  if (bytes === null) return undefined;
  return { pta: await parsePta(bytes, key), bytes: bytes.length };
}

/**
 * Version `version` of the chain starting at `start`: from the newest cached version of the chain below it
 * (`cached` looks one up by its version) or the chain's PTA, and the states added since, read a page at a
 * time. Undefined once the chain is gone (expired) or shorter than the version needs.
 */
export async function readChain(link: RedisLink, keys: RedisKeys, cached: (version: number) => Entry | undefined, task: string, start: number, version: number): Promise<Entry | undefined> {
  const list = keys.chain(task, start);
  let base: Entry | undefined;
  for (let u = version - 1; u >= start && base === undefined; u--) {
    const e = cached(u);
    if (e?.chain?.start === start) base = e;
  }
  let pta: Pta;
  let chain: ChainState;
  if (base?.chain) {
    pta = base.pta;
    chain = { ...base.chain };
  } else {
    // Elements as Buffers, decoded a slice a turn (value-text.ts); an element never changes once written.
    const [bytes] = await link.run('get_pta', (r) => r.lrangeBuffer(list, 0, 0));
    if (bytes === undefined) return undefined;
    pta = await parsePta(bytes, list);
    if (pta.version !== start) throw new SteplensError('internal', `PTA ${list} in Redis is version ${pta.version}`);
    chain = { start, ptaBytes: bytes.length, deltaBytes: 0 };
  }
  for (let i = pta.version - start + 1; i <= version - start; i += DELTA_PAGE) {
    const last = Math.min(i + DELTA_PAGE - 1, version - start);
    const texts = await link.run('get_pta', (r) => r.lrangeBuffer(list, i, last));
    if (texts.length !== last - i + 1) return undefined; // the chain expired meanwhile
    for (const bytes of texts) {
      const { states, by } = await readDelta(await textInSlices(bytes));
      if (!states.ok) throw new SteplensError('internal', `PTA ${list} in Redis: version ${pta.version + 1} is unreadable: ${states.error}`);
      pta = await runInSteps(addReferenceInSteps(pta, states.value, by !== undefined ? { by } : {}));
      chain.deltaBytes += bytes.length;
    }
  }
  return { pta, bytes: knownPtaJsonBytes(pta) ?? chain.ptaBytes + chain.deltaBytes, chain };
}
