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

/** Test helper: runs `work`, noting at each turn of the event loop meanwhile what `look` says. */
export async function eachTurnDuring<T, L>(work: () => Promise<T>, look: () => L): Promise<{ value: T; seen: L[] }> {
  const seen: L[] = [];
  let spinning = true;
  const spin = (): void => {
    if (!spinning) return;
    seen.push(look());
    setImmediate(spin);
  };
  setImmediate(spin);
  try {
    return { value: await work(), seen };
  } finally {
    spinning = false;
  }
}
