/** Every table of the report, in report order (the CSV files, report.md and report.html). */
import type { CorpusReport } from '../types.js';
import { headToHeadTable } from './head-to-head-table.js';
import { selectionDisplay } from './selection-display.js';
import { attemptsTable, reliabilityTable, trajectoriesTable } from './run-tables.js';
import type { Table } from './table-cells.js';
import { calibrationTable, luckyTable, modelsTable, referenceTables, reliabilityDiagramTable, selectionTable, separationTable, sourceSeparationTable, tasksTable } from './tables.js';

/** `display`: the tables of report.html and report.md (the best-of-N ones compact, {@link selectionDisplay}); else the data tables (CSV). */
export function allTables(r: CorpusReport, options: { display?: boolean } = {}): Table[] {
  const selectionOf = options.display === true ? selectionDisplay : selectionTable;
  return [
    tasksTable(r),
    modelsTable(r),
    ...(r.headToHead.length > 0 ? [headToHeadTable(r)] : []),
    separationTable(r),
    sourceSeparationTable(r),
    selectionOf(r),
    ...(r.calibration !== undefined ? [calibrationTable(r), reliabilityDiagramTable(r)] : []),
    ...referenceTables(r, selectionOf),
    luckyTable(r),
    reliabilityTable(r),
    attemptsTable(r),
    trajectoriesTable(r),
  ];
}
