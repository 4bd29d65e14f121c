/** Real trajectories from the shared corpus, parsed to steps (test fixtures). */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Step } from '../../src/core/types.js';
import { sweAgentParser } from '../../src/formats/swe-agent.js';
import { CORPUS_DIR } from '../fixtures/corpus.js';

const CORPUS = CORPUS_DIR;

/** Steps of a SWE-agent `.traj` file under the corpus. */
export function sweAgentSteps(relative: string): Step[] {
  const doc: unknown = JSON.parse(readFileSync(path.join(CORPUS, relative), 'utf8'));
  return sweAgentParser.parse(doc).steps;
}

const G = 'christsakm__Trajectories/GOOD_EXAMPLES';
export const HYDRA_GPT5 = `${G}/facebookresearch__hydra-1915/trace_01_gpt-5-2025-08-07/facebookresearch__hydra-1915.traj`;
export const HYDRA_KIMI = `${G}/facebookresearch__hydra-1915/trace_02_kimi-k2-instruct-0905/facebookresearch__hydra-1915.traj`;
export const HYDRA_QWEN = `${G}/facebookresearch__hydra-1915/trace_03_qwen3-coder-480b-a35b-instruct/facebookresearch__hydra-1915.traj`;
export const MOTO_KIMI = `${G}/getmoto__moto-6510/trace_02_kimi-k2-instruct-0905/getmoto__moto-6510.traj`;
