/** Every table of the report, in report order (the CSV files, report.md and report.html). */
import type { CorpusReport } from '../types.js';
import { headToHeadTable } from './head-to-head-table.js';
import {
  attemptsTable,
  calibrationTable,
  luckyTable,
  modelsTable,
  referenceTables,
  reliabilityDiagramTable,
  reliabilityTable,
  selectionTable,
  separationTable,
  sourceSeparationTable,
  tasksTable,
  trajectoriesTable,
  type Table,
} from './tables.js';

export function allTables(r: CorpusReport): Table[] {
  return [
    tasksTable(r),
    modelsTable(r),
    ...(r.headToHead.length > 0 ? [headToHeadTable(r)] : []),
    separationTable(r),
    sourceSeparationTable(r),
    selectionTable(r),
    ...(r.calibration !== undefined ? [calibrationTable(r), reliabilityDiagramTable(r)] : []),
    ...referenceTables(r),
    luckyTable(r),
    reliabilityTable(r),
    attemptsTable(r),
    trajectoriesTable(r),
  ];
}
