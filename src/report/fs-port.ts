/**
 * The file-system port the report reads through. The command passes a
 * node:fs implementation; tests may pass an in-memory one. Nothing in
 * `src/report/` touches the disk directly.
 */
export interface DirEntry {
  name: string;
  dir: boolean;
}

export interface ReportFs {
  /** File text, or undefined when the file is missing or unreadable. */
  readText(path: string): string | undefined;
  /** Entries of a directory, or undefined when it is not one. */
  list(dir: string): DirEntry[] | undefined;
  /** 'file', 'dir', or undefined when the path does not exist. */
  kind(path: string): 'file' | 'dir' | undefined;
}
