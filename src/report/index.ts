/** The corpus report (`steplens report`): discovery, outcomes, scoring, tables, statistics, rendering. */
export * from './types.js';
export type { ReportFs, DirEntry } from './fs-port.js';
export { discover, candidateFiles, type Discovery, type ParseFile } from './discover.js';
export { identify, taskFromPath, runFromPath, fileStem, type Identity, type IdentityOverrides } from './identity.js';
export { outcomesFromDoc, isAuxiliaryDoc, type OutcomeMap } from './outcome-docs.js';
export { parseOutcomesTable, lookupOutcome, type OutcomeEntry } from './outcomes-table.js';
export { resolveOutcome, infraExit, INFRA_EXIT, type OutcomeContext } from './resolve-outcome.js';
export { scoreCorpus, MIN_REFERENCES, type ScoredTrajectory } from './score-corpus.js';
export { buildReport, type BuildReportOptions } from './build-report.js';
export { modelRows } from './models.js';
export { separation, luckyChiSquare } from './statistics.js';
export { reliabilitySection, configurationOf } from './reliability-section.js';
export { allTables, type Table, type Cell } from './render/tables.js';
export { textTable, markdownTable, csvTable } from './render/format-table.js';
export { terminalSummary, markdownReport } from './render/summary.js';
export { reportCharts, type Chart } from './render/charts.js';
export { htmlReport } from './render/html.js';
