// How often the event loop turned while some work ran: the tests that show work is done off the
// loop (issue 38 items 1 and 2) count setImmediate turns, which a synchronous read, hash or write
// would leave at zero. Input: the work. Output: its value and the count.
export async function loopTurnsDuring<T>(work: () => Promise<T>): Promise<{ value: T; turns: number }> {
  let turns = 0;
  let on = true;
  const tick = (): void => {
    turns += 1;
    if (on) setImmediate(tick);
  };
  setImmediate(tick);
  try {
    return { value: await work(), turns };
  } finally {
    on = false;
  }
}
