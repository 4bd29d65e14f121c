/** Test helper: a running count of the event loop's turns (work that yields between slices turns it), until stopped. */
export function turnCounter(): { turns: () => number; stop: () => void } {
  let turns = 0;
  let spinning = true;
  const spin = (): void => {
    turns++;
    if (spinning) setImmediate(spin);
  };
  setImmediate(spin);
  return { turns: () => turns, stop: () => (spinning = false) };
}

/** Test helper: how many turns of the event loop went by while `work` ran (work that yields between slices turns it). */
export async function loopTurnsDuring<T>(work: () => Promise<T>): Promise<{ value: T; turns: number }> {
  const counter = turnCounter();
  try {
    return { value: await work(), turns: counter.turns() };
  } finally {
    counter.stop();
  }
}
