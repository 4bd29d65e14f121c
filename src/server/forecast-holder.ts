/**
 * The forecast model in force (`serve --forecast`): which model a new
 * session gets (by its agent and model), and the swap `--forecast-learn`
 * makes. A session takes its model when it starts and keeps it, so a swap
 * never changes a score already sent, nor any later score of a running session.
 */
import { trainedRunList } from '../core/forecast/fingerprint.js';
import { selectModel, type ForecastFile, type ForecastModel } from '../core/forecast/model.js';
import type { JobForecast } from './score-request.js';

/** One entry of the history: a version put in force. */
export interface ForecastVersion {
  version: number;
  createdAt: string;
  /** Where the version came from: the loaded file, or a retraining on this many finished sessions. */
  source: 'file' | 'learned';
  sessions?: number;
  /** Held-out numbers of the check that let it in (learned versions). */
  validation?: unknown;
}

export class ForecastHolder {
  private file: ForecastFile;
  readonly history: ForecastVersion[] = [];
  /** The file's training runs as a sorted list, made once per version (jobForecast). */
  private trained: { version: number; runs: readonly string[] | undefined } | undefined;

  constructor(file: ForecastFile) {
    this.file = file;
    this.history.push({ version: file.version, createdAt: file.createdAt, source: 'file' });
  }

  get version(): number {
    return this.file.version;
  }

  get current(): ForecastFile {
    return this.file;
  }

  /** The model for a session of `agent` / `model` (undefined when no model applies). */
  modelFor(agent: string | undefined, model: string | undefined): { model: ForecastModel; version: number } | undefined {
    const m = selectModel(this.file, agent, model);
    return m === undefined ? undefined : { model: m, version: this.file.version };
  }

  /** The models in force and their version, as a scoring job carries them (without the file's evaluation), and its training runs' fingerprints. */
  jobForecast(): JobForecast {
    this.trained ??= { version: this.file.version, runs: trainedRunList(this.file.trainedRuns) };
    if (this.trained.version !== this.file.version) this.trained = { version: this.file.version, runs: trainedRunList(this.file.trainedRuns) };
    const runs = this.trained.runs;
    return { models: this.file.models, version: this.file.version, ...(runs !== undefined ? { trainedRuns: runs } : {}) };
  }

  /** Puts `file` in force as the next version. */
  swap(file: ForecastFile, entry: Omit<ForecastVersion, 'version' | 'createdAt'>): ForecastFile {
    const next: ForecastFile = { ...file, version: this.file.version + 1 };
    this.file = next;
    this.history.push({ version: next.version, createdAt: next.createdAt, ...entry });
    return next;
  }
}
