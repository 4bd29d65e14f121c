/**
 * Short arrays a session keeps for its whole life (a detector's episodes and their steps, the signals fired, a
 * script's paths, a file's runs). V8 gives an array that `push` grows at least 16 slots of spare room: a 3-element
 * array so grown costs 184 B on the heap against 72 for one of exact size, and an active disjoint 100-step session
 * kept ~13 such arrays (bench/README.md, "Memory per session, tenth pass"). Built in one go, such an array is kept as
 * an exact copy ({@link exact}); grown one element at a time, it is replaced by an exact copy while short
 * ({@link appended}), and pushed to once long (its spare room is then at most half its length, as for any array, and
 * a copy would cost O(n) an element).
 */

/** Arrays this long or longer are pushed to by {@link appended} instead of copied. */
export const EXACT_MAX = 16;

/** Empty: no array of its own for a kept list that stayed empty (frozen: shared). */
const EMPTY: readonly never[] = Object.freeze([]);

/**
 * `arr` with `item` appended: a new array of exact size while `arr` is shorter than {@link EXACT_MAX}, else `arr`
 * itself pushed to. The caller keeps what it returns in place of `arr`, and must not rely on a reference to the
 * old array seeing the new element.
 */
export function appended<T>(arr: T[], item: T): T[] {
  if (arr.length >= EXACT_MAX) {
    arr.push(item);
    return arr;
  }
  // concat spreads its argument array one level only: an `item` that is an array is appended as one element.
  return arr.concat([item]);
}

/** A copy of `arr` of exact size (the shared empty array when it is empty), to keep in place of one `push` built. */
export function exact<T>(arr: readonly T[]): readonly T[] {
  return arr.length === 0 ? EMPTY : arr.slice();
}

/**
 * Columns a session grows a row a step (its states' numbers and references, its step lines, its matching's rows) get
 * room by an eighth of their length plus 4 ({@link withRoom}) instead of push's half plus 16: at 100 steps push left 40
 * slots spare in each (~0.3 KB a column; bench/README.md, "Memory per session, eleventh pass"). A sixteenth (that
 * pass's choice) copied a 79-step column 15 times, ~6.5 slots of garbage a step, most of it promoted before it died
 * (bench/README.md, "gc22"); an eighth copies it 12 times (~4.8 slots a step, ~7 spare at 50-150 rows against ~4;
 * "grow22"). Past this length they are pushed to: `new Array(n)` of a length near 100,000 or more is not kept in fast
 * elements.
 */
export const ROOM_MAX = 1 << 15;

/** Room for the next `length` of a column so grown (`length` + an eighth + 4). */
export function nextRoom(length: number): number {
  return length + (length >> 3) + 4;
}

/**
 * Room for the next `length` of a column expected to reach `expected` rows (a session's reference runs' median
 * length, core/pta/expected-states.ts): {@link nextRoom}'s rungs skipped up to the first at or past `expected`, as
 * far as a store of `length` elements keeps its room (past twice the length plus 15, setting the length back trims
 * it, see {@link withRoom}). A 79-step column expected at 72 is copied at 13, 38 and 77 rows instead of 11 times
 * (bench/README.md, "gc27"); past `expected` it grows as before, so its room at any length past that is the same.
 */
export function nextRoomToward(length: number, expected: number): number {
  let room = nextRoom(length);
  while (room < expected && nextRoom(room) <= 2 * length + 15) room = nextRoom(room);
  return room;
}

/**
 * A copy of `arr` (the same elements and length) whose store has room for `room` elements, so that `push` fills it
 * without growing it until then: the caller appends with `push` and calls this again once the length reaches the room
 * it asked for (a column keeps that room in a field). Setting the length back keeps the store: V8 trims only a
 * store of at least twice the length plus 16.
 */
export function withRoom<T>(arr: T[], room: number): T[] {
  const out = new Array<T>(room);
  for (let i = 0; i < arr.length; i++) out[i] = arr[i]!;
  out.length = arr.length;
  return out;
}

/**
 * {@link withRoom} for a column of numbers: its own `new Array`, filled with a double, so that its store holds unboxed
 * doubles (one `new Array` site for every column learns the most general kind its arrays took: the references'
 * boxed every number, ~1.6 KB a 100-step session's states).
 */
export function withNumberRoom(arr: number[], room: number): number[] {
  const out = new Array<number>(room).fill(Number.NaN);
  for (let i = 0; i < arr.length; i++) out[i] = arr[i]!;
  out.length = arr.length;
  return out;
}
