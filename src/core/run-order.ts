/**
 * The one order of runs that does not depend on the order a command was given its PATH arguments: by file path,
 * segment by segment (`/`), each segment by UTF-16 code units. It is the order in which a walk of one folder lists
 * its files (report/discover.ts sorts each folder's entries by name and descends in that order), so a command over
 * one folder, or over folders named in this order, meets its runs in the order it always did.
 */

/** Compares two run paths (see the file comment); 0 only for equal paths. */
export function compareRunKeys(a: string, b: string): number {
  const x = a.split('/');
  const y = b.split('/');
  for (let i = 0; i < x.length && i < y.length; i++) if (x[i] !== y[i]) return x[i]! < y[i]! ? -1 : 1;
  return x.length - y.length;
}
