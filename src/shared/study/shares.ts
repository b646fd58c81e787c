// Task shares: each participant plays k of a study's n scored tasks, drawn as a balanced incomplete
// block design (docs/STUDIES.md, "Task shares"). The plan is built participant by participant, so
// participant i's share depends only on the seed and i (a station or a later session recomputes it
// exactly), and it keeps three balances greedily:
// - every task played equally often: a share takes the tasks played least so far (counts across the
//   first m participants differ by at most one wherever the object rule leaves a choice);
// - every pair of tasks together about equally often: ties go to the task that has met the share's
//   other tasks least;
// - tasks of one object (the id before its last `__`: `robot__sculpt` and `robot__reassembly`)
//   never in one share unless the experimenter allows it.
// Inputs: task ids, participant index, k, seed, whether one object's modes may meet.
// Output: the participant's share in play order (seeded shuffle). Invariant: deterministic.
import { z } from 'zod';
import { deriveSeed, mulberry32 } from '../math/random';

export const TaskShareSchema = z.strictObject({
  /** Tasks each participant plays (k of the study's n). */
  perParticipant: z.number().int().min(1).max(200),
  /** Seed of the draw (recorded: the whole plan follows from it). */
  seed: z.number().int().min(0).max(2 ** 31 - 1),
  /** Results and the tables warn where a task has fewer counted participants than this. */
  minPerTask: z.number().int().min(0).max(10_000).default(0),
  /** Whether two modes of one object (build and reassembly of `robot`) may meet in one share. */
  modesTogether: z.boolean().default(false),
  /** Participants the experimenter plans (for the expected count per task shown before the start). */
  planned: z.number().int().min(1).max(100_000).optional(),
});
export type TaskShare = z.infer<typeof TaskShareSchema>;

/** The object a task belongs to: its id before the last `__` (the id itself when it has none). */
export function taskObject(id: string): string {
  const at = id.lastIndexOf('__');
  return at > 0 ? id.slice(0, at) : id;
}

/** Why a share cannot be drawn from these tasks, or null. */
export function shareProblem(tasks: readonly string[], share: Pick<TaskShare, 'perParticipant' | 'modesTogether'>): string | null {
  const k = share.perParticipant;
  if (k > tasks.length) return `each participant plays ${k} tasks, but the study has ${tasks.length}`;
  if (!share.modesTogether) {
    const objects = new Set(tasks.map(taskObject)).size;
    if (k > objects) return `each participant plays ${k} tasks of different objects, but the study's tasks cover ${objects} object${objects === 1 ? '' : 's'} (allow modes of one object together, or lower the share)`;
  }
  return null;
}

/** The shares of the first `participants` participants (task indices, each share in play order). */
export function shareBlocks(tasks: readonly string[], participants: number, share: Pick<TaskShare, 'perParticipant' | 'seed' | 'modesTogether'>): number[][] {
  const problem = shareProblem(tasks, share);
  if (problem) throw new Error(problem);
  const n = tasks.length;
  const k = share.perParticipant;
  const objects = tasks.map(taskObject);
  const count = new Array<number>(n).fill(0);
  const pair = Array.from({ length: n }, () => new Array<number>(n).fill(0));
  const blocks: number[][] = [];
  for (let p = 0; p < participants; p++) {
    const rng = mulberry32(deriveSeed(share.seed, 'share', p));
    const tie = tasks.map(() => rng.next());
    const free0 = [...Array(n).keys()];
    const least = Math.min(...count);
    // Candidate shares start from different least-played tasks; the one whose pairs have met
    // least (sum of squared meeting counts) wins, so pairs spread without giving up task balance.
    const starts = free0.filter((t) => count[t] === least).sort((a, b) => tie[a] - tie[b]).slice(0, CANDIDATES);
    const candidates = binomial(n, k) <= EXHAUSTIVE ? allShares(n, k, objects, share.modesTogether) : starts.map((start) => completeShare(start, k, count, pair, objects, tie, share.modesTogether));
    let best: number[] = [];
    let bestKey: number[] = [];
    for (const chosen of candidates) {
      let sumCount = 0;
      let squares = 0;
      for (const a of chosen) {
        sumCount += count[a];
        for (const b of chosen) if (a < b) squares += (pair[a][b] + 1) ** 2;
      }
      const candidateKey = [sumCount, squares, chosen.reduce((x, t) => x + tie[t], 0)];
      if (!best.length || lexLess(candidateKey, bestKey)) [best, bestKey] = [chosen, candidateKey];
    }
    for (const a of best) {
      count[a] += 1;
      for (const b of best) if (a !== b) pair[a][b] += 1;
    }
    blocks.push(rng.shuffle([...best]));
  }
  return blocks;
}

/** Candidate shares tried per participant (bounds the work for large studies). */
const CANDIDATES = 16;

/** Below this many possible shares every one is scored (small studies get the best draw). */
const EXHAUSTIVE = 5000;

function binomial(n: number, k: number): number {
  let c = 1;
  for (let i = 0; i < k; i++) c = (c * (n - i)) / (i + 1);
  return c;
}

/** Every k-subset of 0..n-1 that keeps one object's tasks apart (unless they may meet). */
function allShares(n: number, k: number, objects: readonly string[], modesTogether: boolean): number[][] {
  const out: number[][] = [];
  const grow = (from: number, chosen: number[]): void => {
    if (chosen.length === k) {
      out.push([...chosen]);
      return;
    }
    for (let t = from; t < n; t++) {
      if (!modesTogether && chosen.some((c) => objects[c] === objects[t])) continue;
      chosen.push(t);
      grow(t + 1, chosen);
      chosen.pop();
    }
  };
  grow(0, []);
  return out;
}

/** A share grown greedily from `start`: least played first, objects kept apart, fewest meetings. */
function completeShare(start: number, k: number, count: readonly number[], pair: readonly (readonly number[])[], objects: readonly string[], tie: readonly number[], modesTogether: boolean): number[] {
  const chosen = [start];
  const taken = new Set([objects[start]]);
  while (chosen.length < k) {
    const free = objects.map((_, t) => t).filter((t) => !chosen.includes(t) && (modesTogether || !taken.has(objects[t])));
    const least = Math.min(...free.map((t) => count[t]));
    // Tasks whose object has many least-played tasks left go first: a tier must not end with
    // tasks of one object only, which the object rule would then push a tier up.
    const tierOf = new Map<string, number>();
    for (const t of free) if (count[t] === least) tierOf.set(objects[t], (tierOf.get(objects[t]) ?? 0) + 1);
    const key = (t: number): number[] => [count[t], chosen.reduce((s, c) => s + pair[t][c], 0), -(tierOf.get(objects[t]) ?? 0), tie[t]];
    let best = free[0];
    for (const t of free.slice(1)) if (lexLess(key(t), key(best))) best = t;
    chosen.push(best);
    taken.add(objects[best]);
  }
  return chosen;
}

function lexLess(a: readonly number[], b: readonly number[]): boolean {
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return a[i] < b[i];
  return false;
}

/** Participant `index`'s share (task ids in play order). */
export function participantShare(tasks: readonly string[], index: number, share: Pick<TaskShare, 'perParticipant' | 'seed' | 'modesTogether'>): string[] {
  return shareBlocks(tasks, index + 1, share)[index].map((i) => tasks[i]);
}

export interface SharePlan {
  /** Per task: participants planned to play it. */
  perTask: { task: string; planned: number }[];
  /** Fewest and most planned participants of any task, and the same for pairs of tasks that may meet. */
  taskRange: [number, number];
  pairRange: [number, number];
  /** participants x k / n: the expected number per task. */
  expected: number;
}

/** What the plan gives `participants` participants: shown before the study starts. */
export function sharePlan(tasks: readonly string[], participants: number, share: Pick<TaskShare, 'perParticipant' | 'seed' | 'modesTogether'>): SharePlan {
  const blocks = shareBlocks(tasks, participants, share);
  const n = tasks.length;
  const count = new Array<number>(n).fill(0);
  const pair = new Map<string, number>();
  for (const b of blocks)
    for (const a of b) {
      count[a] += 1;
      for (const c of b) if (a < c) pair.set(`${a},${c}`, (pair.get(`${a},${c}`) ?? 0) + 1);
    }
  const pairs: number[] = [];
  for (let a = 0; a < n; a++) for (let c = a + 1; c < n; c++) if (share.modesTogether || taskObject(tasks[a]) !== taskObject(tasks[c])) pairs.push(pair.get(`${a},${c}`) ?? 0);
  return {
    perTask: tasks.map((task, i) => ({ task, planned: count[i] })),
    taskRange: [Math.min(...count), Math.max(...count)],
    pairRange: pairs.length ? [Math.min(...pairs), Math.max(...pairs)] : [0, 0],
    expected: (participants * share.perParticipant) / n,
  };
}

/** Tasks with fewer counted participants than the study's minimum, as warnings (one line each). */
export function shareWarnings(counted: ReadonlyMap<string, number>, tasks: readonly string[], minPerTask: number): string[] {
  if (minPerTask <= 0) return [];
  return tasks.filter((t) => (counted.get(t) ?? 0) < minPerTask).map((t) => `${t}: ${counted.get(t) ?? 0} counted participant${counted.get(t) === 1 ? '' : 's'}, fewer than the study's minimum of ${minPerTask}`);
}

export interface ShareStatus {
  /** Per task: planned for the study's planned participants, assigned to counted participants, played (submitted, not excluded). */
  perTask: { task: string; planned: number; assigned: number; played: number }[];
  /** The plan's expected participants per task (planned x k / n). */
  expected: number;
  /** One line per task below the minimum (by played episodes). */
  warnings: string[];
}

/**
 * Where a share study stands: counted participants are those not declined, withdrawn or deleted
 * (as for the Williams balance, order.ts); a task's played count is its submitted episodes that
 * are not excluded.
 */
export function shareStatus(config: { tasks: readonly string[]; share: TaskShare }, participants: readonly { status: string; order: readonly string[]; episodes: readonly { taskId: string; practice: boolean; status: string; excluded?: unknown }[] }[]): ShareStatus {
  const counted = participants.filter((p) => !['declined', 'withdrawn', 'deleted'].includes(p.status));
  const planned = config.share.planned ?? Math.max(counted.length, 1);
  const plan = sharePlan(config.tasks, planned, config.share);
  const played = new Map<string, number>();
  for (const p of counted) for (const e of p.episodes) if (!e.practice && e.status === 'submitted' && !e.excluded) played.set(e.taskId, (played.get(e.taskId) ?? 0) + 1);
  return {
    perTask: plan.perTask.map(({ task, planned: n }) => ({ task, planned: n, assigned: counted.filter((p) => p.order.includes(task)).length, played: played.get(task) ?? 0 })),
    expected: plan.expected,
    warnings: shareWarnings(played, config.tasks, config.share.minPerTask),
  };
}
