/** The growth loop expected-room and column-room both count (one copy of it: audit29). */

export interface Growth {
  /** Stores made (the first one included). */
  copies: number;
  /** Slots of the stores outgrown: garbage. */
  outgrown: number;
  /** The room at the end. */
  room: number;
}

/**
 * A column grown row by row to `rows`: a new store each time a row finds it full, of room `next(length)`.
 * `onRow(n, room)` sees each row, with the new store's room when one was made for it (else null).
 */
export function grownRoom(rows: number, next: (length: number) => number, onRow?: (n: number, room: number | null) => void): Growth {
  let room = 0;
  let copies = 0;
  let outgrown = 0;
  for (let n = 0; n < rows; n++) {
    let made: number | null = null;
    if (n === room) {
      outgrown += room;
      room = made = next(n);
      copies++;
    }
    onRow?.(n, made);
  }
  return { copies, outgrown, room };
}
