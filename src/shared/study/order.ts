// Counterbalanced task orders: a balanced Latin square (Williams design), so across a full cycle
// of participants every task appears once in every position and, for an even number of tasks,
// every task directly follows every other task exactly once. For an odd number the square is
// paired with its mirror (2n rows), which restores the first-order carry-over balance.
// Inputs: the base task list, a participant's 0-based index. Output: that participant's order.
// Invariant: every order is a permutation of the base list; `fixed` returns it unchanged.
import { participantShare, type TaskShare } from './shares';
import { stationPlace, type Station } from './station';

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

/** How many participants one full Williams cycle needs (1 for fixed order or a single task). */
export function cycleLength(taskCount: number, mode: 'fixed' | 'counterbalanced'): number {
  return mode === 'fixed' || taskCount < 2 ? 1 : williamsSquare(taskCount).length;
}

export interface CounterbalanceStatus {
  /** Participants one full cycle needs. */
  cycle: number;
  /** Per slot (row of the square): its order and the participants who hold it. */
  slots: { slot: number; order: number[]; participants: string[] }[];
  /** Participants counted (those whose data can enter the statistics). */
  counted: number;
  /** Set when the counted participants do not fill every slot equally often. */
  warning: string | null;
}

/**
 * Whether the participants complete whole Williams cycles: every slot held equally often.
 * Input: the task count, the order mode, and each counted participant's slot. A participant
 * without a recorded slot holds slot (creation index mod cycle), as the store assigns it.
 */
export function counterbalanceStatus(taskCount: number, mode: 'fixed' | 'counterbalanced', held: readonly { id: string; slot: number }[]): CounterbalanceStatus {
  const cycle = cycleLength(taskCount, mode);
  const square = cycle === 1 ? [Array.from({ length: taskCount }, (_, i) => i)] : williamsSquare(taskCount);
  const slots = square.map((order, slot) => ({ slot, order, participants: held.filter((h) => h.slot % cycle === slot).map((h) => h.id) }));
  if (cycle === 1) return { cycle, slots, counted: held.length, warning: null };
  const counts = slots.map((s) => s.participants.length);
  const most = Math.max(...counts);
  const missing = counts.reduce((sum, c) => sum + (most - c), 0);
  let warning: string | null = null;
  if (held.length === 0) warning = `no participants yet: one Williams cycle needs ${cycle}`;
  else if (missing > 0 || most === 0) {
    const empty = slots.filter((s) => s.participants.length < most).map((s) => s.slot + 1);
    warning = `${held.length} participant${held.length === 1 ? '' : 's'} do${held.length === 1 ? 'es' : ''} not complete a Williams cycle of ${cycle} orders: ${missing} more needed (slot${empty.length === 1 ? '' : 's'} ${empty.join(', ')}): until then the order positions are not balanced across tasks`;
  }
  return { cycle, slots, counted: held.length, warning };
}

/** The order of one slot (row of the square), as task ids. */
export function slotOrder<T>(tasks: readonly T[], slot: number, mode: 'fixed' | 'counterbalanced'): T[] {
  return participantOrder(tasks, slot, mode);
}

/**
 * The counterbalancing of a study's participants: those who are not declined, withdrawn or
 * deleted count, each at their recorded slot (or their creation index, before slots existed).
 */
export function studyBalance(config: { tasks: readonly unknown[]; order: 'fixed' | 'counterbalanced'; share?: unknown }, participants: readonly { id: string; status: string; slot?: number }[]): CounterbalanceStatus {
  const held = participants.map((p, i) => ({ p, slot: p.slot ?? i })).filter(({ p }) => !['declined', 'withdrawn', 'deleted'].includes(p.status));
  // With task shares the balance is per task (shares.ts, sharePlan), not over Williams cycles.
  if (config.share) return { cycle: 1, slots: [], counted: held.length, warning: null };
  return counterbalanceStatus(config.tasks.length, config.order, held.map(({ p, slot }) => ({ id: p.id, slot })));
}

/**
 * The task order of the participant holding `slot`: with a task share (shares.ts) the slot is the
 * participant's place in the share plan and the order is that share; otherwise the slot is a row of
 * the Williams square over every task.
 */
export function assignedOrder(config: { tasks: readonly string[]; order: 'fixed' | 'counterbalanced'; share?: Pick<TaskShare, 'perParticipant' | 'seed' | 'modesTogether'> }, slot: number): string[] {
  return config.share ? participantShare(config.tasks, slot, config.share) : slotOrder(config.tasks, slot, config.order);
}

/** The slot a study's participant number `index` (0-based, in order of creation) holds. */
export function slotForIndex(config: { tasks: readonly string[]; order: 'fixed' | 'counterbalanced'; share?: unknown; station?: Pick<Station, 'index' | 'count'> }, index: number): number {
  // A station walks every n-th place of the plan (station.ts), so the stations together fill it.
  const place = config.station ? stationPlace(config.station, index) : index;
  return config.share ? place : place % cycleLength(config.tasks.length, config.order);
}
