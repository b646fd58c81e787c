// Counterbalanced task orders: a balanced Latin square (Williams design), so across a full cycle
// of participants every task appears once in every position and, for an even number of tasks,
// every task directly follows every other task exactly once. For an odd number the square is
// paired with its mirror (2n rows), which restores the first-order carry-over balance.
// Inputs: the base task list, a participant's 0-based index. Output: that participant's order.
// Invariant: every order is a permutation of the base list; `fixed` returns it unchanged.

/** Rows of the Williams square as index permutations of 0..n-1 ([rows][n]). */
export function williamsSquare(n: number): number[][] {
  if (!Number.isInteger(n) || n < 1) throw new Error(`williamsSquare: n must be a positive integer, got ${n}`);
  // First row 0, 1, n-1, 2, n-2, ...; row r adds r (mod n) to every entry.
  const first: number[] = [];
  for (let i = 0, lo = 1, hi = n - 1; i < n; i++) {
    if (i === 0) first.push(0);
    else if (i % 2 === 1) first.push(lo++);
    else first.push(hi--);
  }
  const rows = first.map((_, r) => first.map((x) => (x + r) % n));
  return n % 2 === 0 ? rows : [...rows, ...rows.map((row) => [...row].reverse())];
}

/** The scored task order of participant number `index` (0-based, in order of creation). */
export function participantOrder<T>(tasks: readonly T[], index: number, mode: 'fixed' | 'counterbalanced'): T[] {
  if (mode === 'fixed' || tasks.length < 2) return [...tasks];
  const square = williamsSquare(tasks.length);
  const row = square[((index % square.length) + square.length) % square.length];
  return row.map((i) => tasks[i]);
}
